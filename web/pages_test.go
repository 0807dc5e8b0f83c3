package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/maintain"
)

// contains fails the test unless body holds every want.
func contains(t *testing.T, what, body string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(body, w) {
			t.Errorf("%s lacks %q", what, w)
		}
	}
}

func TestPages_Overview(t *testing.T) {
	f := newFixture(t, Options{Loopback: true})
	w := f.get("/")
	if w.Code != http.StatusOK {
		t.Fatalf("got %d: %s", w.Code, w.Body)
	}
	contains(t, "overview", w.Body.String(), "<h1>Overview</h1>", `<dd id="count-memories">3</dd>`,
		`<a href="/memories?tier=working">1</a>`, `href="/sessions/s-one"`, "<dt>Versions</dt>")
	t.Run("WithoutStats", func(t *testing.T) {
		f.h.b.Stats = nil
		body := f.get("/").Body.String()
		contains(t, "overview without stats", body, `<dd id="count-memories">3</dd>`, `<a href="/memories?tier=register">2</a>`)
		if strings.Contains(body, "<dt>Versions</dt>") {
			t.Error("versions shown without store statistics")
		}
	})
}

func TestPages_Memories(t *testing.T) {
	f := newFixture(t, Options{Loopback: true})
	t.Run("List", func(t *testing.T) {
		body := f.get("/memories").Body.String()
		contains(t, "listing", body, "3 memories", "How we deploy", "Editor preference", `<label for="q">Search</label>`)
	})
	t.Run("FilterByTag", func(t *testing.T) {
		body := f.get("/memories?tag=prefs").Body.String()
		contains(t, "tag filter", body, "1 memory", "Editor preference")
		if strings.Contains(body, "How we deploy") {
			t.Error("tag filter kept a memory without the tag")
		}
	})
	t.Run("FilterByTier", func(t *testing.T) {
		body := f.get("/memories?tier=working").Body.String()
		contains(t, "tier filter", body, "Database choice")
		if strings.Contains(body, "Editor preference") {
			t.Error("tier filter kept a register memory")
		}
	})
	t.Run("Search", func(t *testing.T) {
		body := f.get("/memories?q=helix+editor&mode=bm25").Body.String()
		contains(t, "search", body, "1 result for “helix editor”", "Editor preference", `class="score"`, "Why this result", "<dt>BM25</dt>",
			`<option value="bm25" selected>`)
	})
	t.Run("BadMode", func(t *testing.T) {
		if w := f.get("/memories?q=x&mode=nonsense"); w.Code != http.StatusBadRequest {
			t.Fatalf("got %d, want 400", w.Code)
		}
	})
}

func TestPages_Memory(t *testing.T) {
	f := newFixture(t, Options{Loopback: true})
	path := "/memories/" + f.deploy.ID
	body := f.get(path).Body.String()
	contains(t, "memory page", body, "<h1>How we deploy</h1>", "<strong>main</strong>", "<code>make release</code>",
		`<dd id="version">2</dd>`, "Changes from version 1 to 2", `<span class="add">&#43;Deploys run from **main** with `+"`make release`"+` after CI passes.</span>`)

	t.Run("NotFound", func(t *testing.T) {
		if w := f.get("/memories/nope"); w.Code != http.StatusNotFound {
			t.Fatalf("got %d, want 404", w.Code)
		}
	})
	c := f.csrf()
	t.Run("Edit", func(t *testing.T) {
		if w := f.get(path + "/edit"); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `<textarea id="content" name="content" rows="16">`) {
			t.Fatalf("edit form: %d", w.Code)
		}
		w := f.post(path+"/edit", url.Values{csrfField: {c.Value}, "title": {"How we deploy"}, "content": {"Deploys run from **main**.\r\nAsk first."}, "tags": {"ops, release"}, "type": {"procedure"}}, c)
		if w.Code != http.StatusSeeOther {
			t.Fatalf("got %d: %s", w.Code, w.Body)
		}
		m, err := f.eng.Get(t.Context(), f.deploy.ID, "")
		if err != nil {
			t.Fatal(err)
		}
		if m.Version != 3 || m.Content != "Deploys run from **main**.\nAsk first." || strings.Join(m.Tags, ",") != "ops,release" {
			t.Fatalf("after edit: version %d content %q tags %v", m.Version, m.Content, m.Tags)
		}
		body := f.get(path + "?from=1&to=3").Body.String()
		contains(t, "diff 1→3", body, "Changes from version 1 to 3", `<span class="add">&#43;tags: ops, release</span>`, `<span class="add">&#43;Ask first.</span>`)
	})
	t.Run("Pin", func(t *testing.T) {
		f.post(path+"/act", url.Values{csrfField: {c.Value}, "action": {"pin"}}, c)
		contains(t, "pinned", f.get(path).Body.String(), `<dd id="pinned">yes</dd>`, ">Unpin<")
		f.post(path+"/act", url.Values{csrfField: {c.Value}, "action": {"unpin"}}, c)
		contains(t, "unpinned", f.get(path).Body.String(), `<dd id="pinned">no</dd>`)
	})
	t.Run("DeleteAndRestore", func(t *testing.T) {
		if w := f.post(path+"/delete", url.Values{csrfField: {c.Value}}, c); w.Code != http.StatusSeeOther {
			t.Fatalf("delete: %d", w.Code)
		}
		contains(t, "deleted memory", f.get(path).Body.String(), "This memory is deleted", "Restore version 1")
		if w := f.post(path+"/restore", url.Values{csrfField: {c.Value}, "version": {"1"}}, c); w.Code != http.StatusSeeOther {
			t.Fatalf("restore: %d %s", w.Code, w.Body)
		}
		m, err := f.eng.Get(t.Context(), f.deploy.ID, "")
		if err != nil || m.Content != "Deploys run from **main** with `make release`." {
			t.Fatalf("after restore: %v %+v", err, m)
		}
	})
}

func TestPages_Sessions(t *testing.T) {
	f := newFixture(t, Options{Loopback: true})
	contains(t, "sessions", f.get("/sessions").Body.String(), "<h1>Sessions</h1>", `href="/sessions/s-one"`, "demo")
	body := f.get("/sessions/s-one").Body.String()
	contains(t, "timeline", body, "please deploy the site", `<mark class="redacted">[REDACTED:api_key]</mark>`, "edited the release target", `<label for="type">Type</label>`)
	body = f.get("/sessions/s-one?type=command").Body.String()
	contains(t, "filtered timeline", body, "make release", `<option value="command" selected>`)
	if strings.Contains(body, "please deploy the site") {
		t.Error("type filter kept a user prompt")
	}
}

// cannedPlan is a maintain plan without a project on disk.
type cannedPlan struct {
	plan *recall.MaintainPlan
	err  error
}

func (c cannedPlan) PlanMaintenance(context.Context, string, time.Time) (*recall.MaintainPlan, error) {
	return c.plan, c.err
}

func (c cannedPlan) ApplyMaintenance(context.Context, string, time.Time, []maintain.Choice, bool, int) (*engine.MaintainResult, error) {
	return nil, recall.Errorf(recall.ENOTIMPL, "A canned plan applies nothing.")
}

func TestPages_OverviewWorkingSet(t *testing.T) {
	f := newFixture(t, Options{Loopback: true})
	f.h.b.Maintenance = cannedPlan{plan: &recall.MaintainPlan{WorkingWords: 1800, Target: 1500, Unit: "words", NeedToFree: 300}}
	contains(t, "over budget", f.get("/").Body.String(), "1800 of 1500 words: 300 over the budget.",
		`<meter id="working-meter" min="0" max="1500" high="1500" value="1800"`)
	// The overview keeps the plan for a minute; a change made through the
	// UI drops it.
	f.h.b.Maintenance = cannedPlan{err: recall.Errorf(recall.ENOTFOUND, "No working file in this project.")}
	contains(t, "kept plan", f.get("/").Body.String(), "1800 of 1500 words")
	c := f.csrf()
	if w := f.post("/memories/"+f.deploy.ID+"/edit", url.Values{csrfField: {c.Value}, "title": {"Deploys"}, "content": {f.deploy.Content}, "type": {f.deploy.Type}, "tags": {"ops"}}, c); w.Code != http.StatusSeeOther {
		t.Fatalf("edit: %d", w.Code)
	}
	contains(t, "no project", f.get("/").Body.String(), "The working set could not be measured: No working file in this project.")
}

func TestPages_OverviewPlots(t *testing.T) {
	f := newFixture(t, Options{Loopback: true})
	body := f.get("/").Body.String()
	// Two register memories against one working: the register bar is the
	// longest (360 px), working half of it.
	contains(t, "plots", body, `<svg role="img" aria-label="Memories by tier"`, `<text class="plot-label" x="0" y="17">register</text>`,
		`<rect class="plot-bar" x="150" y="3" width="360" height="18"></rect>`, `<rect class="plot-bar" x="150" y="27" width="180" height="18"></rect>`,
		`aria-label="Observations by type"`, `>command</text>`)
}

func TestNewBarChart(t *testing.T) {
	if newBarChart("none", nil) != nil {
		t.Error("a chart of nothing")
	}
	c := newBarChart("x", map[string]int{"b": 1, "a": 1000, "c": 0})
	var got []string
	for _, b := range c.Bars {
		got = append(got, fmt.Sprintf("%s=%d:%d", b.Label, b.Value, b.Width))
	}
	if want := "a=1000:360 b=1:1 c=0:0"; strings.Join(got, " ") != want {
		t.Errorf("bars %v, want %s", got, want)
	}
}

func TestPages_Maintain(t *testing.T) {
	f := newFixture(t, Options{Loopback: true})
	f.h.b.Maintenance = nil
	if w := f.get("/maintain"); w.Code != http.StatusNotImplemented {
		t.Fatalf("without a maintainer: got %d, want 501", w.Code)
	}
	if strings.Contains(f.get("/").Body.String(), `href="/maintain"`) {
		t.Error("navigation links to a page this server lacks")
	}
	f.h.b.Maintenance = cannedPlan{plan: &recall.MaintainPlan{WorkingWords: 1700, Target: 1500, Unit: "words", NeedToFree: 200,
		PressureCandidates:   []recall.MaintainCandidate{{ID: "tr1", File: "CLAUDE.local.md", Line: 4, Text: "Use <tabs> in Makefiles", Words: 4, DaysSinceReview: 40, Score: 0.7, Action: "demote"}},
		SupersededCandidates: nil,
		Findings:             []recall.MaintainFinding{{Kind: recall.FindingContradiction, IDs: []string{"tr2", "tr3"}, Message: "Two answers for the editor.", Actions: []string{"supersede"}}},
	}}
	body := f.get("/maintain").Body.String()
	contains(t, "maintain page", body, "<h1>Maintenance</h1>", "1700 of 1500 words: free 200.", `<a href="/memories/tr1">Use &lt;tabs&gt; in Makefiles</a>`,
		"CLAUDE.local.md:4", "<td>demote</td>", `<h2 id="superseded">Superseded</h2>`, "None.", `<span class="tag">contradiction</span> Two answers for the editor.`,
		`<a href="/memories/tr3">tr3</a>`, ": supersede", `href="/maintain" aria-current="page"`)
}
