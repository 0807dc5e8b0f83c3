package httpapi_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/httpapi"
)

// send does one request and decodes a JSON answer into out (when not nil);
// it returns the status and the raw body.
func send(t *testing.T, method, url, body string, out any) (int, []byte) {
	t.Helper()
	status, raw, err := request(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	if out != nil && status < 300 {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s %s: %v: %s", method, url, err, raw)
		}
	}
	return status, raw
}

// request is send without a test, for goroutines.
func request(method, url, body string) (int, []byte, error) {
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	return resp.StatusCode, raw, err
}

// managedFiles returns the markdown files under root and their text.
func managedFiles(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == engine.ProjectDir {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".md") {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			out[filepath.ToSlash(rel)] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestServer_TierRoutes checks the workspace routes against the project's
// files: a sync plan writes nothing, a sync writes the working memory's
// line, a pin moves it to the core file, and maintain apply archives.
func TestServer_TierRoutes(t *testing.T) {
	eng := openEngine(t)
	ts, _ := newServer(t, &httpapi.Server{Engine: eng, Loopback: true})
	root := filepath.Dir(eng.Location.Dir)
	var put struct{ Memory recall.Memory }
	send(t, "POST", ts.URL+"/v1/memories", `{"key":"editor","tier":"working","content":"The user edits in Helix."}`, &put)
	id := put.Memory.ID
	var other struct{ Memory recall.Memory }
	send(t, "POST", ts.URL+"/v1/memories", `{"key":"old-ci","tier":"working","content":"CI runs on Travis."}`, &other)

	var plan engine.SyncReport
	if status, raw := send(t, "GET", ts.URL+"/v1/sync/plan", "", &plan); status != 200 || len(plan.Appended) != 2 {
		t.Fatalf("sync plan: %d %s", status, raw)
	}
	if files := managedFiles(t, root); len(files) != 0 {
		t.Fatalf("the sync plan wrote %v", files)
	}

	var rep engine.SyncReport
	if status, raw := send(t, "POST", ts.URL+"/v1/sync", "", &rep); status != 200 || len(rep.Files) == 0 {
		t.Fatalf("sync: %d %s", status, raw)
	}
	holding := func(id string) []string {
		var out []string
		for name, text := range managedFiles(t, root) {
			if strings.Contains(text, id) {
				out = append(out, name)
			}
		}
		return out
	}
	before := holding(id)
	if len(before) != 1 {
		t.Fatalf("after sync the memory's line is in %v, want one file", before)
	}

	var done engine.Applied
	if status, raw := send(t, "POST", ts.URL+"/v1/memories/editor/pin", "", &done); status != 200 || done.ID != id || done.Action != "pin" {
		t.Fatalf("pin: %d %s", status, raw)
	}
	// A demote moves the entry's line to the register's file, as the
	// CLI's does.
	if status, raw := send(t, "POST", ts.URL+"/v1/memories/old-ci/demote", "", &done); status != 200 || done.Tier != recall.TierRegister {
		t.Fatalf("demote: %d %s", status, raw)
	}
	if after := holding(other.Memory.ID); len(after) != 1 || after[0] == before[0] || after[0] != done.File {
		t.Fatalf("after demote the line is in %v (was %v; applied %+v)", after, before, done)
	}
	var m recall.Memory
	if send(t, "GET", ts.URL+"/v1/memories/"+id, "", &m); !m.Pinned {
		t.Fatalf("after pin: %+v", m)
	}

	now := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	if status, raw := send(t, "POST", ts.URL+"/v1/memories/editor/snooze", `{"days":7,"now":"2030-01-02T03:04:05Z"}`, &done); status != 200 {
		t.Fatalf("snooze: %d %s", status, raw)
	}
	if send(t, "GET", ts.URL+"/v1/memories/"+id, "", &m); m.SnoozedUntil == nil || !m.SnoozedUntil.Equal(now.AddDate(0, 0, 7)) {
		t.Fatalf("after snooze 7 days from %v: %v", now, m.SnoozedUntil)
	}

	var res engine.MaintainResult
	body := `{"choices":[{"id":"` + other.Memory.ID + `","action":"archive"}]}`
	if status, raw := send(t, "POST", ts.URL+"/v1/maintain/apply", body, &res); status != 200 || len(res.Applied) != 1 || res.Plan == nil {
		t.Fatalf("maintain apply: %d %s", status, raw)
	}
	if send(t, "GET", ts.URL+"/v1/memories/"+other.Memory.ID, "", &m); m.Status != recall.StatusArchived {
		t.Fatalf("after maintain apply archive: %+v", m)
	}
	if status, _ := send(t, "POST", ts.URL+"/v1/maintain/apply", `{}`, nil); status != 400 {
		t.Fatalf("maintain apply with nothing to apply: %d, want 400", status)
	}
}

// TestServer_HistoryAndCopies checks diff, export and backup by their
// effects: the diff shows the edit, the export's lines are the memories,
// the backup file is a copy inside the store.
func TestServer_HistoryAndCopies(t *testing.T) {
	eng := openEngine(t)
	ts, _ := newServer(t, &httpapi.Server{Engine: eng, Loopback: true})
	send(t, "POST", ts.URL+"/v1/memories", `{"key":"deploy","content":"Deploys run on Fridays.","tags":["ops"]}`, nil)
	send(t, "PATCH", ts.URL+"/v1/memories/deploy", `{"content":"Deploys run on Thursdays."}`, nil)
	send(t, "POST", ts.URL+"/v1/memories", `{"key":"editor","content":"The user edits in Helix."}`, nil)

	var d struct {
		From, To int
		Diff     string
	}
	if status, raw := send(t, "GET", ts.URL+"/v1/memories/deploy/diff", "", &d); status != 200 || d.From != 1 || d.To != 2 ||
		!strings.Contains(d.Diff, "-Deploys run on Fridays.") || !strings.Contains(d.Diff, "+Deploys run on Thursdays.") {
		t.Fatalf("diff: %d %s", status, raw)
	}

	resp, err := http.Get(ts.URL + "/v1/export")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || ct != "application/x-ndjson" {
		t.Fatalf("export: %d %s", resp.StatusCode, ct)
	}
	var keys []string
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		var m recall.Memory
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("export line %q: %v", sc.Text(), err)
		}
		keys = append(keys, m.Key+"="+m.Content)
	}
	if strings.Join(keys, ";") != "deploy=Deploys run on Thursdays.;editor=The user edits in Helix." {
		t.Fatalf("export, oldest first: %v", keys)
	}
	_, raw := send(t, "GET", ts.URL+"/v1/export?filter=tags=ops", "", nil)
	if n := bytes.Count(raw, []byte("\n")); n != 1 {
		t.Fatalf("filtered export has %d lines: %s", n, raw)
	}

	var b struct {
		Path, File string
		Counts     recall.BackupCounts
	}
	if status, raw := send(t, "POST", ts.URL+"/v1/backup", "", &b); status != 201 || b.Counts.Memories != 2 || b.Counts.Versions != 3 {
		t.Fatalf("backup: %d %s", status, raw)
	}
	if filepath.Dir(b.Path) != filepath.Join(eng.Location.Dir, engine.BackupDir) || filepath.Base(b.Path) != b.File {
		t.Fatalf("backup at %s, want inside %s", b.Path, eng.Location.Dir)
	}
	if fi, err := os.Stat(b.Path); err != nil || fi.Size() == 0 {
		t.Fatalf("backup file: %v", err)
	}
	var again struct{ Path string }
	if send(t, "POST", ts.URL+"/v1/backup", `{"path":"/tmp/elsewhere.db"}`, &again); again.Path == b.Path || filepath.Dir(again.Path) != filepath.Dir(b.Path) {
		t.Fatalf("a second backup %q: want a new file beside %q, whatever the body says", again.Path, b.Path)
	}
}

// TestServer_ForgettingAndHealth checks purge (dry run, then confirm),
// sweep, stats, rollups, tiers, reindex status and doctor on a real store.
func TestServer_ForgettingAndHealth(t *testing.T) {
	eng := openEngine(t)
	ts, _ := newServer(t, &httpapi.Server{Engine: eng, Loopback: true})
	send(t, "POST", ts.URL+"/v1/observations", `{"observations":[{"type":"command","content":"feed the flamingo"},{"type":"command","content":"go test ./..."}]}`, nil)
	send(t, "POST", ts.URL+"/v1/memories", `{"key":"k","content":"A memory to count."}`, nil)

	var rep recall.PurgeReport
	if status, raw := send(t, "POST", ts.URL+"/v1/purge", `{"search":"flamingo","dry_run":true,"sample":5}`, &rep); status != 200 || !rep.DryRun || rep.Observations != 1 || len(rep.Sample) != 1 {
		t.Fatalf("purge dry run: %d %s", status, raw)
	}
	var list struct{ Total int }
	if send(t, "GET", ts.URL+"/v1/observations?q=flamingo", "", &list); list.Total != 1 {
		t.Fatalf("a dry run deleted: %d left", list.Total)
	}
	if status, raw := send(t, "POST", ts.URL+"/v1/purge", `{"search":"flamingo","confirm":true}`, &rep); status != 200 || rep.DryRun || rep.Observations != 1 {
		t.Fatalf("purge: %d %s", status, raw)
	}
	if send(t, "GET", ts.URL+"/v1/observations", "", &list); list.Total != 1 {
		t.Fatalf("after purge %d observations, want the other one", list.Total)
	}
	if status, _ := send(t, "POST", ts.URL+"/v1/purge", `{"dry_run":true}`, nil); status != 400 {
		t.Fatalf("purge without a filter: %d, want 400", status)
	}

	var sw recall.SweepReport
	if status, raw := send(t, "POST", ts.URL+"/v1/sweep", `{"dry_run":true}`, &sw); status != 200 || !sw.DryRun {
		t.Fatalf("sweep: %d %s", status, raw)
	}
	var st recall.StoreStats
	if status, raw := send(t, "GET", ts.URL+"/v1/stats", "", &st); status != 200 || st.Memories != 1 || st.Observations != 1 {
		t.Fatalf("stats: %d %s", status, raw)
	}
	var ru recall.RollupReport
	if status, raw := send(t, "POST", ts.URL+"/v1/rollups/run", "", &ru); status != 200 || !ru.Done {
		t.Fatalf("rollups: %d %s", status, raw)
	}
	var tiers struct{ Tiers []recall.TierStat }
	if status, raw := send(t, "GET", ts.URL+"/v1/tiers", "", &tiers); status != 200 || len(tiers.Tiers) == 0 {
		t.Fatalf("tiers: %d %s", status, raw)
	}
	var vs recall.VectorStats
	if status, raw := send(t, "GET", ts.URL+"/v1/reindex/status", "", &vs); status != 200 || vs.Memories != 1 || vs.Embedded != 1 {
		t.Fatalf("reindex status: %d %s", status, raw)
	}
	var doc struct {
		OK     bool
		Checks []engine.Check
	}
	if status, raw := send(t, "GET", ts.URL+"/v1/doctor", "", &doc); status != 200 || len(doc.Checks) < 3 || doc.Checks[1].Status != engine.CheckOK {
		t.Fatalf("doctor: %d %s", status, raw)
	}
}
