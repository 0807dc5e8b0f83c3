package engine

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/hook"
)

// HookLogFile is the hooks' log in the store directory: a hook never
// breaks the agent, so its failures go there.
const HookLogFile = "hook.log"

// hookLogMaxBytes is the size past which the hook log is rotated to
// hook.log.1.
const hookLogMaxBytes = 1 << 20

// AppendHookLog appends line to the hook log of the store directory dir
// (created 0700 if missing), rotating the log past hookLogMaxBytes. It
// fails when the log cannot be opened, so that the caller says it
// elsewhere.
func AppendHookLog(dir, line string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	path := filepath.Join(dir, HookLogFile)
	if fi, err := os.Stat(path); err == nil && fi.Size() > hookLogMaxBytes {
		_ = os.Rename(path, path+".1")
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	_, _ = f.WriteString(line) // a full disk loses the line, as it would on stderr
	return nil
}

// Check is one line of the doctor's report.
type Check struct {
	Name    string   `json:"name"`
	Status  string   `json:"status"`
	Details []string `json:"details,omitempty"`
}

// Doctor checks the store's files, opens the store unless that
// would discard damaged data, and runs every check. It returns an error
// only when there is no store to check (or no config to read). extra
// checks (an interface's own) run after the built-in ones, before git's.
func (e *Engine) Doctor(ctx context.Context, extra ...func() Check) ([]Check, error) {
	loc, err := ResolveStore(e.StoreFlag, e.GlobalFlag)
	if err != nil {
		return nil, err
	}
	files, lost := e.fileCheck(loc.Dir)
	if loc.URL != "" {
		// No file of the store is here: the directory keeps the config.
		files.Name = serverFilesCheck(loc)
	}
	if lost {
		return []Check{files}, nil
	}
	if err := e.Open(ctx); err != nil {
		r, damaged := e.openFailure(loc.Dir, err)
		if !damaged {
			return nil, err
		}
		return []Check{files, r}, nil
	}
	return append([]Check{files}, e.diagnose(ctx, extra)...), nil
}

// diagnose runs every check of an open store.
func (e *Engine) diagnose(ctx context.Context, extra []func() Check) []Check {
	var out []Check
	add := func(name string, fail bool, details ...string) {
		st := CheckOK
		if fail {
			st = CheckFail
		}
		out = append(out, Check{Name: name, Status: st, Details: details})
	}
	integrity := "integrity (integrity_check, FTS5 integrity-check)"
	if e.Location.URL != "" {
		integrity = "integrity (schema version, every row of the namespace read)"
	}
	if err := e.Check(ctx); err != nil {
		add(integrity, true, append([]string{err.Error()}, integrityAdvice(e.Location.Dir)...)...)
	} else {
		add(integrity, false)
	}
	out = append(out, e.orphanCheck(ctx))
	if drift, err := e.Sessions().Drift(ctx); err != nil {
		add("markdown views", true, err.Error())
	} else {
		for i, d := range drift {
			drift[i] = d + " differs from the store (edited by hand?); `recall session start` rewrites it"
		}
		st := CheckOK
		if len(drift) > 0 {
			st = CheckWarn // the views are derived; the store is intact
		}
		out = append(out, Check{Name: "markdown views", Status: st, Details: drift})
	}
	out = append(out, e.embeddingCheck(ctx))
	out = append(out, e.permissionCheck())
	out = append(out, e.hookCheck())
	for _, check := range extra {
		out = append(out, check())
	}
	out = append(out, e.gitCheck(ctx))
	return out
}

// orphanCheck counts rows that point at something missing. Observations
// of a session never started are what `recall observe --session s1`
// records by design (info); a memory without its current version is
// damage (fail).
func (e *Engine) orphanCheck(ctx context.Context) Check {
	r := Check{Name: "orphans", Status: CheckOK}
	orphans, err := e.Store.Upkeep().Orphans(ctx)
	if err != nil {
		return Check{Name: "orphans", Status: CheckFail, Details: []string{err.Error()}}
	}
	kinds := make([]string, 0, len(orphans))
	for kind := range orphans {
		kinds = append(kinds, kind)
	}
	sort.Strings(kinds)
	for _, kind := range kinds {
		n := orphans[kind]
		if n == 0 {
			continue
		}
		if kind == recall.OrphanObservations {
			r.Status = worst(r.Status, CheckInfo)
			r.Details = append(r.Details, fmt.Sprintf("%d %s: recorded with --session for a session never started; they are kept and searchable, and `recall session start --session ID` adds the session", n, kind))
			continue
		}
		r.Status = CheckFail
		r.Details = append(r.Details, fmt.Sprintf("%d %s", n, kind))
	}
	return r
}

// permissionCheck finds store files other users can access. The database
// and its log hold the memories (fail); the directory, config and hook
// log hold no memories (warn).
func (e *Engine) permissionCheck() Check {
	r := Check{Name: "store permissions", Status: CheckOK}
	type file struct {
		name string
		data bool
	}
	files := []file{{"", false}, {DBFile, true}, {DBFile + "-wal", true}, {DBFile + "-shm", true}, {ConfigFile, false}, {HookLogFile, false}}
	for _, f := range files {
		p := filepath.Join(e.Location.Dir, f.name)
		fi, err := os.Stat(p)
		if err != nil {
			continue
		}
		mode := fi.Mode().Perm()
		if mode&0o077 == 0 {
			continue
		}
		want, what := "0600", "it holds no memories"
		if fi.IsDir() {
			want, what = "0700", "other users can list the store's files"
		}
		st := CheckWarn
		if f.data {
			st, what = CheckFail, "it holds the memories"
		}
		r.Status = worst(r.Status, st)
		r.Details = append(r.Details, fmt.Sprintf("%s is %04o: other users can read it (%s); run chmod %s %s", p, mode, what, want, p))
	}
	return r
}

// Doctor Grades, from harmless to serious. Each check says which it is, and
// the report prints this scheme beside the checks (and in --json), so that
// a reader knows what to act on. Only fail makes doctor exit non-zero.
const (
	CheckOK   = "ok"
	CheckInfo = "info"
	CheckWarn = "warn"
	CheckFail = "fail"
)

// Grades says what each grade means, in order.
var Grades = []struct {
	Status  string `json:"status"`
	Meaning string `json:"meaning"`
}{
	{CheckOK, "healthy"},
	{CheckInfo, "worth knowing, nothing to do"},
	{CheckWarn, "recall works, but this should be fixed"},
	{CheckFail, "data is at risk or cannot be read, doctor exits 1"},
}

// gradeRank orders Grades for worst.
func gradeRank(status string) int {
	for i, g := range Grades {
		if g.Status == status {
			return i
		}
	}
	return len(Grades) // unknown: treated as worst
}

// worst returns the more serious of two Grades.
func worst(a, b string) string {
	if gradeRank(b) > gradeRank(a) {
		return b
	}
	return a
}

// The checks of a store that may be damaged. They run before the store is
// opened, since SQLite discards a damaged write-ahead log on open, and
// they still report when it cannot be opened at all.

// fileCheckName names the byte-level check of the store's files.
const fileCheckName = "store files (database header, write-ahead log)"

// serverFilesCheck names the file check of a store on a server, which
// has no files of its own to inspect.
func serverFilesCheck(loc *Location) string {
	return "store on " + loc.Store() + " (no files here: the server keeps its own, with WAL replay and page checksums)"
}

// fileCheck inspects recall.db and recall.db-wal without SQLite. It
// reports whether committed writes are unreadable, in which case doctor
// must not open the store: the open would discard the log.
func (e *Engine) fileCheck(dir string) (r Check, lost bool) {
	r = Check{Name: fileCheckName, Status: CheckOK}
	for _, p := range e.parts.Backend.CheckFiles(filepath.Join(dir, DBFile)) {
		st := CheckWarn
		if p.Lost {
			st, lost = CheckFail, true
		}
		r.Status = worst(r.Status, st)
		r.Details = append(r.Details, fmt.Sprintf("%s: %s", p.File, p.Problem))
	}
	if r.Status == CheckWarn {
		r.Details = append(r.Details, "if no recall process was writing just now, a process stopped mid-write; nothing committed is lost")
	}
	if lost {
		r.Details = append(r.Details, "doctor did not open the store with SQLite, so that nothing in these files is discarded or overwritten")
		r.Details = append(r.Details, repairAdvice(dir)...)
	}
	return r, lost
}

// openFailure reports a store whose database SQLite refuses to open as
// damaged. It returns false when the error is not damage (a missing store,
// a bad config): doctor returns that error as every command does.
func (e *Engine) openFailure(dir string, err error) (Check, bool) {
	if !e.parts.Backend.IsCorrupt(err) {
		return Check{}, false
	}
	details := append([]string{fmt.Sprintf("%s cannot be opened: %v", filepath.Join(dir, DBFile), err)}, repairAdvice(dir)...)
	return Check{Name: "store opens", Status: CheckFail, Details: details}, true
}

// repairAdvice says what to do with a damaged store, in order: keep the
// evidence, restore a backup, else salvage what SQLite can still read.
func repairAdvice(dir string) []string {
	db := filepath.Join(dir, DBFile)
	salvage := filepath.Join(filepath.Dir(dir), filepath.Base(dir)+".salvaged")
	return []string{
		fmt.Sprintf("what to do: stop every recall process (servers, hooks), then keep a copy of the store as it is: cp -a %s %s.broken", dir, dir),
		"then restore the store from a backup (recall backup) if you have one",
		fmt.Sprintf("or salvage what SQLite can still read, with a sqlite3 shell that has .recover (the one from sqlite.org): mkdir -m 700 %s && sqlite3 %s .recover | sqlite3 %s, then check it with recall --store %s doctor",
			salvage, db, filepath.Join(salvage, DBFile), salvage),
	}
}

// integrityAdvice follows a failed integrity check.
func integrityAdvice(dir string) []string {
	return append([]string{"SQLite found damage in the store: reads may fail or return wrong rows, and writes may spread the damage"}, repairAdvice(dir)...)
}

// embeddingCheck reports the embedding queue and the provider's last
// failure, as recorded in the store by whichever process last tried it.
// Memories waiting while the provider fails are a warning: they are
// stored and found by full text, but not by meaning.
func (e *Engine) embeddingCheck(ctx context.Context) Check {
	r := Check{Name: "embeddings", Status: CheckOK}
	if e.VectorStore() == nil {
		return r
	}
	st, err := e.ReindexStatus(ctx)
	if err != nil {
		return Check{Name: r.Name, Status: CheckFail, Details: []string{err.Error()}}
	}
	if st.Model == "none" {
		r.Status = CheckInfo
		r.Details = []string{"no embedder ([retrieval] embedder = \"none\"): search is by full text only"}
		return r
	}
	r.Details = append(r.Details, fmt.Sprintf("%s: %d of %d memories embedded; queue: %d", st.Model, st.Embedded, st.Memories, st.Queued))
	if st.StoredModel != "" && st.StoredModel != st.Model {
		r.Status = CheckWarn
		r.Details = append(r.Details, fmt.Sprintf("the stored vectors are of %s, not %s: run `recall reindex`", st.StoredModel, st.Model))
	}
	if st.ProviderError != "" {
		when := ""
		if st.ProviderErrorAt != nil {
			when = " at " + st.ProviderErrorAt.Local().Format(time.DateTime)
		}
		r.Details = append(r.Details, fmt.Sprintf("the provider's last error%s: %s", when, st.ProviderError))
	}
	switch {
	case st.Queued > 0 && (st.ProviderError != "" || st.Failing > 0):
		r.Status = CheckWarn
		r.Details = append(r.Details, fmt.Sprintf("%d memories wait for embedding and search ranks them by full text only: start the provider or fix [retrieval] in config.toml, then run `recall reindex`", st.Queued))
	case st.Queued > 0:
		r.Status = worst(r.Status, CheckInfo)
		r.Details = append(r.Details, fmt.Sprintf("%d memories wait for embedding: a search or a running server embeds them, or run `recall reindex`", st.Queued))
	case st.ProviderError != "":
		r.Status = worst(r.Status, CheckInfo) // nothing waits for it
	}
	return r
}

// gitCheck warns when files of the store are tracked by git. It passes
// when git is not installed or the store is not inside a repository.
func (e *Engine) gitCheck(ctx context.Context) Check {
	const name = "git (store files not tracked)"
	git, err := exec.LookPath("git")
	if err != nil {
		return Check{Name: name, Status: CheckOK, Details: []string{"git is not installed: not checked"}}
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, git, "-C", e.Location.Dir, "ls-files", "--full-name", "-z", "--", ".")
	cmd.Stdout = &out
	if cmd.Run() != nil { // not a repository, or git cannot tell
		return Check{Name: name, Status: CheckOK}
	}
	var details []string
	for _, f := range strings.Split(out.String(), "\x00") {
		if f != "" {
			details = append(details, f+" is tracked by git")
		}
	}
	if len(details) == 0 {
		return Check{Name: name, Status: CheckOK}
	}
	details = append(details, fmt.Sprintf("it holds captured prompts and commands: run `git rm -r --cached %s` and commit; the store's .gitignore keeps it out from then on", e.Location.Dir))
	return Check{Name: name, Status: CheckWarn, Details: details}
}

// hookCheck reports where recall's Claude Code hooks are installed: the
// project's settings (beside a project store, or the working directory)
// and the user's. Missing hooks are a warning, not a failure.
func (e *Engine) hookCheck() Check {
	r := Check{Name: "claude code hooks", Status: CheckWarn}
	var places []string
	if e.Location.Kind == "project" {
		places = append(places, filepath.Join(filepath.Dir(e.Location.Dir), ".claude", "settings.json"))
	}
	if wd, err := os.Getwd(); err == nil {
		places = append(places, filepath.Join(wd, ".claude", "settings.json"))
	}
	if home, err := os.UserHomeDir(); err == nil {
		places = append(places, filepath.Join(home, ".claude", "settings.json"))
	}
	seen := map[string]bool{}
	for _, p := range places {
		if seen[p] {
			continue
		}
		seen[p] = true
		events, err := hook.Installed(p)
		if err != nil || len(events) == 0 {
			continue
		}
		r.Status = CheckOK
		line := fmt.Sprintf("%s: %s", p, strings.Join(events, ", "))
		if len(events) < len(hook.Events) {
			line += fmt.Sprintf(" (%d of %d events; rerun `recall install claude`)", len(events), len(hook.Events))
		}
		r.Details = append(r.Details, line)
	}
	if r.Status == CheckWarn {
		r.Details = []string{"not installed: run `recall install claude` (or `recall install claude --user` for every project) so sessions are captured"}
	}
	return r
}
