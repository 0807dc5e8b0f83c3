package web

import (
	"bytes"
	"embed"
	"errors"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/httpapi"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// Options are the server's security settings, the same as the REST API's.
type Options struct {
	// Token, when set, must be shown once (?token= or the login form);
	// the browser then keeps a session cookie derived from it.
	Token string
	// Loopback refuses requests whose Host is not a loopback name (DNS
	// rebinding), as the REST API does when it listens on loopback only.
	Loopback bool
	// Logger receives failures that pages show as a plain error; nil
	// discards them.
	Logger *slog.Logger
}

// Handler serves the UI. Create it with New.
type Handler struct {
	b     Backend
	opt   Options
	pages map[string]*template.Template
	root  http.Handler
	// The slow panels: the overview's doctor's report and maintain plan,
	// kept for a while (see snapshot). A change made through the UI drops
	// the plan.
	checks snapshot[[]engine.Check]
	plan   snapshot[*recall.MaintainPlan]
}

// changed drops what a change made through the UI makes stale.
func (h *Handler) changed() {
	h.plan.forget()
}

// New returns the UI handler for b. Returns an error when b has no
// Memories or a template does not parse (a build defect).
func New(b Backend, opt Options) (*Handler, error) {
	if b.Memories == nil {
		return nil, errors.New("web: the UI needs a memory service")
	}
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	h := &Handler{b: b, opt: opt, pages: map[string]*template.Template{}}
	for _, name := range []string{"overview", "memories", "memory", "edit", "sessions", "session", "maintain", "rollups", "rollup", "forget", "login", "error"} {
		t, err := template.New(name).Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/plot.html", "templates/"+name+".html")
		if err != nil {
			return nil, err
		}
		h.pages[name] = t
	}
	static, _ := fs.Sub(staticFS, "static")
	mux := http.NewServeMux()
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	mux.HandleFunc("GET /{$}", h.overview)
	mux.HandleFunc("POST /health", h.recheck)
	mux.HandleFunc("GET /rollups", h.rollups)
	mux.HandleFunc("GET /rollups/{id}", h.rollup)
	mux.HandleFunc("GET /forget", h.forget)
	mux.HandleFunc("POST /forget/purge", h.purge)
	mux.HandleFunc("GET /memories", h.memories)
	mux.HandleFunc("GET /memories/{id}", h.memory)
	mux.HandleFunc("GET /memories/{id}/edit", h.editForm)
	mux.HandleFunc("POST /memories/{id}/edit", h.edit)
	mux.HandleFunc("POST /memories/{id}/delete", h.delete)
	mux.HandleFunc("POST /memories/{id}/act", h.act)
	mux.HandleFunc("POST /memories/{id}/restore", h.restore)
	mux.HandleFunc("GET /sessions", h.sessions)
	mux.HandleFunc("GET /sessions/{id}", h.session)
	mux.HandleFunc("GET /maintain", h.maintain)
	mux.HandleFunc("POST /maintain/apply", h.maintainApply)
	// Signed in already (a second tab's login form, say): go where it was going.
	mux.HandleFunc("/login", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, safeNext(r.FormValue("next")), http.StatusSeeOther)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		h.fail(w, r, recall.Errorf(recall.ENOTFOUND, "No page at %s.", r.URL.Path))
	})
	h.root = h.guard(mux)
	return h, nil
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.root.ServeHTTP(w, r) }

// view is what every page template gets: its own data plus what the
// layout needs.
type view struct {
	Title string
	Nav   string // the navigation entry to mark current
	CSRF  string
	Has   Backend
	Data  any
}

// render executes page into a buffer first, so that a template error
// becomes an error page instead of half a page.
func (h *Handler) render(w http.ResponseWriter, r *http.Request, status int, page, title, nav string, data any) {
	v := view{Title: title, Nav: nav, CSRF: csrfToken(w, r), Has: h.b, Data: data}
	var buf bytes.Buffer
	if err := h.pages[page].ExecuteTemplate(&buf, "layout", v); err != nil {
		h.opt.Logger.Error("web: render", "page", page, "err", err)
		http.Error(w, "The page could not be rendered; the server log says why.", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// fail shows err as a page with the status its code maps to. A request
// whose client hung up (a search that left the gate's queue) is no
// failure: it gets a bare status, logged at debug level.
func (h *Handler) fail(w http.ResponseWriter, r *http.Request, err error) {
	if httpapi.ClientLeft(r, err) {
		h.opt.Logger.Debug("web: client left", "path", r.URL.Path)
		w.WriteHeader(httpapi.StatusClientLeft)
		return
	}
	status := http.StatusInternalServerError
	switch recall.ErrorCode(err) {
	case recall.ENOTFOUND:
		status = http.StatusNotFound
	case recall.EINVALID, recall.ETOOLARGE:
		status = http.StatusBadRequest
	case recall.ECONFLICT:
		status = http.StatusConflict
	case recall.ENOTIMPL:
		status = http.StatusNotImplemented
	}
	if status == http.StatusInternalServerError {
		h.opt.Logger.Error("web: request failed", "path", r.URL.Path, "err", err)
	}
	h.render(w, r, status, "error", "Error", "", recall.ErrorMessage(err))
}

// refuse answers a request the guard turned away, without touching the store.
func (h *Handler) refuse(w http.ResponseWriter, status int, msg string) {
	http.Error(w, msg, status)
}

func (h *Handler) renderLogin(w http.ResponseWriter, r *http.Request, status int, problem string) {
	u := *r.URL
	q := u.Query()
	q.Del("token") // a wrong token must not ride along to the next page
	u.RawQuery = q.Encode()
	next := u.RequestURI()
	if r.Method == http.MethodPost {
		next = r.PostFormValue("next")
	}
	h.render(w, r, status, "login", "Sign in", "", struct{ Next, Problem string }{safeNext(next), problem})
}
