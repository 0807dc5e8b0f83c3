package engine_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/engine/enginetest"
	"github.com/recall-mem/recall/sqlite"
)

// testParts are the real SQLite backend and a hashing embedder, which
// needs no model.
func testParts() engine.Parts {
	return engine.Parts{
		Backend: sqlite.Backend{},
		NewEmbedder: func(cfg engine.RetrievalConfig) (recall.Embedder, bool, error) {
			return letters{}, true, nil
		},
	}
}

// letters embeds a text as its letter counts: enough for vectors to
// exist, with no model to load and no package the engine test depends on.
type letters struct{}

func (letters) Model() string { return "letters" }
func (letters) Dim() int      { return 26 }
func (letters) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, 26)
		for _, r := range strings.ToLower(t) {
			if r >= 'a' && r <= 'z' {
				v[r-'a']++
			}
		}
		v[0]++ // never the zero vector
		out[i] = v
	}
	return out, nil
}

// openEngine opens an engine on a new store in a temporary directory and
// checks the store's integrity when the test ends.
func openEngine(t *testing.T) *engine.Engine {
	t.Helper()
	return enginetest.Open(t, testParts(), &bytes.Buffer{})
}

func TestEngine_OpenForWrite(t *testing.T) {
	e := openEngine(t)
	if _, err := os.Stat(filepath.Join(e.Location.Dir, ".gitignore")); err != nil {
		t.Fatalf("a new store gets a .gitignore: %v", err)
	}
	missing := engine.New(testParts())
	missing.StoreFlag = filepath.Join(t.TempDir(), "nowhere")
	if err := missing.Open(context.Background()); recall.ErrorCode(err) != recall.ENOTFOUND {
		t.Fatalf("Open of a missing store = %v, want ENOTFOUND", err)
	}
}

func TestEngine_MemoryLifecycle(t *testing.T) {
	ctx := context.Background()
	e := openEngine(t)
	res, err := e.Put(ctx, &recall.Memory{Key: "deploy-rule", Content: "Deploys go through staging first."})
	if err != nil {
		t.Fatal(err)
	}
	id := res.Memory.ID
	content := "Deploys go through staging and a canary."
	if _, err := e.Update(ctx, id, recall.MemoryUpdate{Content: &content}); err != nil {
		t.Fatal(err)
	}
	got, err := e.Get(ctx, "deploy-rule", "")
	if err != nil || got.Version != 2 || got.Content != content {
		t.Fatalf("Get = %+v, %v: want version 2 with the new content", got, err)
	}
	d, err := e.Diff(ctx, id, 1, 2)
	if err != nil || !strings.Contains(string(d), "-Deploys go through staging first.") || !strings.Contains(string(d), "+"+content) {
		t.Fatalf("Diff = %s, %v", d, err)
	}
	hits, err := e.Search(ctx, recall.SearchQuery{Text: "canary", Limit: 5})
	if err != nil || len(hits) == 0 || hits[0].Memory.ID != id {
		t.Fatalf("Search = %v, %v: want %s first", hits, err, id)
	}
	if err := e.Delete(ctx, id); err != nil {
		t.Fatal(err)
	}
	if _, n, err := e.List(ctx, recall.MemoryFilter{}); err != nil || n != 0 {
		t.Fatalf("List after delete = %d, %v", n, err)
	}
	if m, err := e.Restore(ctx, id, 1); err != nil || m.Content != "Deploys go through staging first." {
		t.Fatalf("Restore = %+v, %v", m, err)
	}
	vs, err := e.Versions(ctx, id)
	if err != nil || len(vs) != 4 {
		t.Fatalf("Versions = %d, %v: want put, update, delete, restore", len(vs), err)
	}
}

func TestEngine_EntryActionPins(t *testing.T) {
	ctx := context.Background()
	e := openEngine(t)
	res, err := e.Put(ctx, &recall.Memory{Key: "editor", Title: "Editor", Content: "Helix with tabs of width 4."})
	if err != nil {
		t.Fatal(err)
	}
	d, err := e.EntryAction(ctx, t.TempDir(), "editor", "pin", "pin", 30, e.Now())
	if err != nil || d.ID != res.Memory.ID {
		t.Fatalf("EntryAction = %+v, %v", d, err)
	}
	if m, err := e.Get(ctx, d.ID, ""); err != nil || !m.Pinned {
		t.Fatalf("after pin: %+v, %v", m, err)
	}
}

func TestEngine_Doctor(t *testing.T) {
	e := openEngine(t)
	extra := func() engine.Check { return engine.Check{Name: "extra", Status: engine.CheckOK} }
	checks, err := e.Doctor(context.Background(), extra)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{}
	for _, c := range checks {
		names[c.Name] = c.Status
	}
	if names["extra"] != engine.CheckOK || names["orphans"] != engine.CheckOK || names["integrity (integrity_check, FTS5 integrity-check)"] != engine.CheckOK {
		t.Fatalf("checks %+v", checks)
	}
}

func TestEngine_BackupRestore(t *testing.T) {
	ctx := context.Background()
	e := openEngine(t)
	if _, err := e.Put(ctx, &recall.Memory{Content: "kept in the backup"}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "b.db")
	c, err := e.Backup(ctx, path)
	if err != nil || c.Memories != 1 {
		t.Fatalf("Backup = %+v, %v", c, err)
	}
	other := openEngine(t)
	if c, err := other.RestoreBackup(ctx, path, false); err != nil || c.Memories != 1 {
		t.Fatalf("RestoreBackup = %+v, %v", c, err)
	}
	if _, n, err := other.List(ctx, recall.MemoryFilter{}); err != nil || n != 1 {
		t.Fatalf("restored store lists %d, %v", n, err)
	}
}

func TestEngine_PurgeStatsTiers(t *testing.T) {
	ctx := context.Background()
	e := openEngine(t)
	for _, c := range []string{"the token is hunter2", "nothing secret here"} {
		if _, err := e.Put(ctx, &recall.Memory{Content: c}); err != nil {
			t.Fatal(err)
		}
	}
	c := recall.PurgeCriteria{Search: "hunter2", Memories: true}
	plan, err := e.PlanPurge(ctx, c, 5)
	if err != nil || plan.Memories != 1 {
		t.Fatalf("PlanPurge = %+v, %v: want one memory", plan, err)
	}
	if rep, err := e.Purge(ctx, c); err != nil || rep.Memories != 1 {
		t.Fatalf("Purge = %+v, %v", rep, err)
	}
	st, err := e.Stats(ctx, e.Now())
	if err != nil || st.Memories != 1 || st.Advice == "" {
		t.Fatalf("Stats = %+v, %v: want one memory and the policy's advice", st, err)
	}
	if rep, err := e.SweepAt(ctx, e.Now(), true); err != nil || rep.Deleted != 0 {
		t.Fatalf("SweepAt dry run = %+v, %v", rep, err)
	}
	tiers, err := e.Tiers(ctx)
	if err != nil || len(tiers) == 0 {
		t.Fatalf("Tiers = %+v, %v", tiers, err)
	}
}

func TestEngine_Init(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	e := engine.New(testParts())
	e.StoreFlag = dir
	r, err := e.Init(context.Background())
	if err != nil || !r.Created || r.Dir != dir || r.Reason != "--store flag" {
		t.Fatalf("Init = %+v, %v", r, err)
	}
	e.Close()
	fi, err := os.Stat(dir)
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("store dir %v, %v: want 0700", fi, err)
	}
	again := engine.New(testParts())
	again.StoreFlag = dir
	if r, err := again.Init(context.Background()); err != nil || r.Created {
		t.Fatalf("second Init = %+v, %v: want the store found", r, err)
	}
	again.Close()
}

func TestMemoryFromDocument(t *testing.T) {
	m, err := engine.MemoryFromDocument([]byte("---\ntitle: Deploy rule\ntags: [ci, Deploy]\nconfidence: 0.5\n---\nStaging first.\n"))
	if err != nil {
		t.Fatal(err)
	}
	engine.FillMemoryDefaults(m)
	if m.Title != "Deploy rule" || m.Key != "deploy-rule" || m.Confidence != 0.5 || m.Content != "Staging first.\n" || m.CreatedBy == "" {
		t.Fatalf("memory %+v", m)
	}
	if _, err := engine.MemoryFromDocument([]byte("---\ntitle: x\nsource: web\n---\nx")); recall.ErrorCode(err) != recall.EINVALID ||
		!strings.Contains(recall.ErrorMessage(err), `Unknown frontmatter key "source"`) || !strings.Contains(recall.ErrorMessage(err), "metadata: {source:") {
		t.Errorf("an unknown frontmatter key: %v, want EINVALID naming it and metadata", err)
	}
	if _, err := engine.MemoryFromDocument([]byte("---\nconfidence: high\n---\nx")); recall.ErrorCode(err) != recall.EINVALID {
		t.Fatalf("a bad confidence = %v, want EINVALID", err)
	}
}

func TestEngine_HookBudgetAndLog(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, engine.ConfigFile), []byte("[hook]\ntimeout_ms = 250\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	e := engine.New(testParts())
	e.StoreFlag = dir
	if got, budget := e.HookBudget(3 * time.Second); got != dir || budget != 250*time.Millisecond {
		t.Fatalf("HookBudget = %s, %v: want the store's 250ms", got, budget)
	}
	if err := engine.AppendHookLog(dir, "one\n"); err != nil {
		t.Fatal(err)
	}
	if err := engine.AppendHookLog(dir, "two\n"); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, engine.HookLogFile)); err != nil || string(b) != "one\ntwo\n" {
		t.Fatalf("hook log %q, %v", b, err)
	}
}

func TestEngine_ExportImport(t *testing.T) {
	ctx := context.Background()
	e := openEngine(t)
	for _, c := range []string{"first", "second"} {
		if _, err := e.Put(ctx, &recall.Memory{Content: c}); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	if err := e.Export(ctx, recall.MemoryFilter{}, &out); err != nil {
		t.Fatal(err)
	}
	ms, err := engine.DecodeMemoryLines(out.Bytes())
	if err != nil || len(ms) != 2 || ms[0].Content != "first" {
		t.Fatalf("exported %d memories, %v: want both, oldest first", len(ms), err)
	}
	other := openEngine(t)
	if res, err := other.Import(ctx, ms); err != nil || res.Added != 2 {
		t.Fatalf("Import = %+v, %v", res, err)
	}
}

func TestEngine_NamedEntryActions(t *testing.T) {
	ctx := context.Background()
	e := openEngine(t)
	root := t.TempDir()
	res, err := e.Put(ctx, &recall.Memory{Key: "style", Title: "Style", Content: "Tabs of width 4."})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Pin(ctx, root, "style", e.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Unpin(ctx, root, "style", e.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Archive(ctx, root, res.Memory.ID, e.Now()); err != nil {
		t.Fatal(err)
	}
	m, err := e.Get(ctx, res.Memory.ID, "")
	if err != nil || m.Pinned || m.Status != recall.StatusArchived {
		t.Fatalf("after pin, unpin, archive: %+v, %v", m, err)
	}
	if _, err := e.Pin(ctx, root, "no-such-key", e.Now()); recall.ErrorCode(err) != recall.ENOTFOUND {
		t.Fatalf("Pin of an unknown key = %v, want ENOTFOUND", err)
	}
}

func TestEngine_SessionsAndSync(t *testing.T) {
	ctx := context.Background()
	e := openEngine(t)
	if _, err := e.StartSession(ctx, &recall.Session{ID: "s1", Agent: "test"}); err != nil {
		t.Fatal(err)
	}
	if s, err := e.EndSession(ctx, recall.SessionEnd{ID: "s1", Summary: "tested"}); err != nil || s.Summary != "tested" {
		t.Fatalf("EndSession = %+v, %v", s, err)
	}
	if all, err := e.ListSessions(ctx, 0); err != nil || len(all) != 1 {
		t.Fatalf("ListSessions = %d, %v", len(all), err)
	}
	root := t.TempDir()
	if _, err := e.Put(ctx, &recall.Memory{Content: "Run the linter before pushing.", Tier: recall.TierWorking}); err != nil {
		t.Fatal(err)
	}
	rep, err := e.SyncProject(ctx, root, e.Now())
	if err != nil || len(rep.Appended) != 1 {
		t.Fatalf("SyncProject = %+v, %v: want the working memory appended to the working file", rep, err)
	}
	b, err := os.ReadFile(filepath.Join(root, e.Config.Working.File))
	if err != nil || !strings.Contains(string(b), "Run the linter before pushing.") {
		t.Fatalf("working file %q, %v", b, err)
	}
}

func TestEngine_PlanSyncWritesNothing(t *testing.T) {
	ctx := context.Background()
	e := openEngine(t)
	if _, err := e.Put(ctx, &recall.Memory{Content: "Keep commits small.", Tier: recall.TierWorking}); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	ws, err := e.OpenWorkspace(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	sp, err := e.PlanSync(ctx, ws, e.Now())
	if err != nil || len(sp.Report().Appended) != 1 {
		t.Fatalf("PlanSync = %+v, %v: want one entry to append", sp, err)
	}
	if _, err := os.Stat(filepath.Join(root, e.Config.Working.File)); !os.IsNotExist(err) {
		t.Fatalf("the working file after a plan: %v, want none written", err)
	}
}
