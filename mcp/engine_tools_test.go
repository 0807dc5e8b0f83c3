package mcp_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/recall-mem/recall/markdown"
)

// putMemory stores content and returns the new memory's id.
func putMemory(t *testing.T, cs *sdk.ClientSession, args map[string]any) string {
	t.Helper()
	var put struct{ ID string }
	callOK(t, cs, "memory_put", args, &put)
	return put.ID
}

// getMemory reads a memory as memory_get returns it.
func getMemory(t *testing.T, cs *sdk.ClientSession, id string) map[string]any {
	t.Helper()
	var m map[string]any
	callOK(t, cs, "memory_get", map[string]any{"id": id}, &m)
	return m
}

func TestServer_VersionTools(t *testing.T) {
	cs := connect(t, newEngine(t), nil)
	id := putMemory(t, cs, map[string]any{"content": "Deploys go through staging.", "key": "deploy"})
	callOK(t, cs, "memory_update", map[string]any{"id": id, "content": "Deploys go straight to production."}, nil)

	var d struct {
		From, To int
		Diff     string
	}
	callOK(t, cs, "memory_diff", map[string]any{"id": "deploy", "from": 1}, &d)
	if d.From != 1 || d.To != 2 || !strings.Contains(d.Diff, "-Deploys go through staging.") || !strings.Contains(d.Diff, "+Deploys go straight to production.") {
		t.Fatalf("diff %+v", d)
	}
	if msg := callErr(t, cs, "memory_diff", map[string]any{"id": "deploy", "from": 9}); !strings.HasPrefix(msg, "not_found: ") {
		t.Fatalf("diff of a missing version: %q", msg)
	}

	var restored struct{ Version int }
	callOK(t, cs, "memory_restore", map[string]any{"id": "deploy", "version": 1}, &restored)
	if m := getMemory(t, cs, id); restored.Version != 3 || m["content"] != "Deploys go through staging." || m["version"] != float64(3) {
		t.Fatalf("restored %+v, now %v", restored, m)
	}
	// A deleted memory comes back by id.
	callOK(t, cs, "memory_delete", map[string]any{"id": id}, nil)
	callOK(t, cs, "memory_restore", map[string]any{"id": id, "version": 2}, nil)
	if m := getMemory(t, cs, id); m["content"] != "Deploys go straight to production." {
		t.Fatalf("after restoring a deleted memory: %v", m)
	}
}

func TestServer_ImportExport(t *testing.T) {
	cs := connect(t, newEngine(t), nil)
	for _, c := range []string{"First fact.", "Second fact.", "Third fact."} {
		putMemory(t, cs, map[string]any{"content": c, "tags": []string{"io"}})
	}
	type page struct {
		JSONL      string
		Count      int
		Total      int
		Truncated  bool
		NextOffset int `json:"next_offset"`
	}
	var p1, p2 page
	callOK(t, cs, "memory_export", map[string]any{"limit": 2}, &p1)
	if p1.Count != 2 || p1.Total != 3 || !p1.Truncated || p1.NextOffset != 2 || strings.Count(p1.JSONL, "\n") != 2 {
		t.Fatalf("first page %+v", p1)
	}
	callOK(t, cs, "memory_export", map[string]any{"limit": 2, "offset": p1.NextOffset}, &p2)
	if p2.Count != 1 || p2.Truncated || !strings.Contains(p2.JSONL, "First fact.") {
		t.Fatalf("second page %+v", p2)
	}

	other := connect(t, newEngine(t), nil)
	if msg := callErr(t, other, "memory_import", map[string]any{"jsonl": p1.JSONL + "{not json}\n"}); !strings.Contains(msg, "Line 3") {
		t.Fatalf("a bad line: %q", msg)
	}
	var empty struct{ Total int }
	callOK(t, other, "memory_list", map[string]any{}, &empty)
	if empty.Total != 0 {
		t.Fatalf("a failed import wrote %d memories", empty.Total)
	}
	var res struct{ Added, Updated int }
	callOK(t, other, "memory_import", map[string]any{"jsonl": p2.JSONL + p1.JSONL}, &res)
	if res.Added != 3 || res.Updated != 0 {
		t.Fatalf("import %+v", res)
	}
	var again page
	callOK(t, other, "memory_export", map[string]any{}, &again)
	if again.Total != 3 || !strings.Contains(again.JSONL, "Second fact.") || again.Truncated {
		t.Fatalf("export of the imported store %+v", again)
	}
	first := strings.SplitN(p1.JSONL, "\n", 2)[0]
	id := regexp.MustCompile(`"id":"(tr[0-9a-f]{10})"`).FindStringSubmatch(first)
	if id == nil || getMemory(t, other, id[1])["id"] != id[1] {
		t.Fatalf("import did not keep the id of %s", first)
	}
}

// A page of memory_export stops at 1 MiB of JSON Lines and says where
// the next one starts.
func TestServer_ExportBounded(t *testing.T) {
	cs := connect(t, newEngine(t), nil)
	for i := range 3 {
		putMemory(t, cs, map[string]any{"content": fmt.Sprintf("Note %d: %s", i, strings.Repeat("long text ", 40_000))})
	}
	var p struct {
		JSONL      string
		Count      int
		Total      int
		Truncated  bool
		NextOffset int `json:"next_offset"`
	}
	callOK(t, cs, "memory_export", map[string]any{}, &p)
	if p.Count != 2 || p.Total != 3 || !p.Truncated || p.NextOffset != 2 || len(p.JSONL) > 1<<20 ||
		!strings.Contains(p.JSONL, "Note 2:") || !strings.Contains(p.JSONL, "Note 1:") {
		t.Fatalf("page of %d bytes: count %d total %d truncated %v next %d", len(p.JSONL), p.Count, p.Total, p.Truncated, p.NextOffset)
	}
	callOK(t, cs, "memory_export", map[string]any{"offset": p.NextOffset}, &p)
	if p.Count != 1 || p.Truncated || !strings.Contains(p.JSONL, "Note 0:") {
		t.Fatalf("last page: count %d truncated %v", p.Count, p.Truncated)
	}
}

// readFile returns a managed file of the project at root, "" if missing.
func readFile(t *testing.T, root, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, name))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(b)
}

// TestServer_EntryTools: the entry actions move the managed files' lines
// as the CLI's commands do, and set the memory's fields.
func TestServer_EntryTools(t *testing.T) {
	eng := newEngine(t)
	root := filepath.Dir(eng.Location.Dir)
	working := eng.Config.Working.File
	if err := os.WriteFile(filepath.Join(root, working), []byte("# Working memory\n\n- Deploys go through staging.\n- Builds run on CI.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, eng, nil)

	var plan struct {
		Tagged int
		Added  []string
	}
	callOK(t, cs, "maintain_sync_plan", map[string]any{}, &plan)
	if plan.Tagged != 2 || len(plan.Added) != 2 {
		t.Fatalf("sync plan %+v", plan)
	}
	var none struct{ Total int }
	callOK(t, cs, "memory_list", map[string]any{}, &none)
	if none.Total != 0 || strings.Contains(readFile(t, root, working), "^tr") {
		t.Fatalf("the plan wrote: %d memories, file %q", none.Total, readFile(t, root, working))
	}
	var synced struct{ Added []string }
	callOK(t, cs, "maintain_sync", map[string]any{}, &synced)
	if len(synced.Added) != 2 || strings.Count(readFile(t, root, working), "^tr") != 2 {
		t.Fatalf("sync %+v, file %q", synced, readFile(t, root, working))
	}
	callOK(t, cs, "maintain_sync", map[string]any{}, &synced)
	if len(synced.Added) != 0 {
		t.Fatalf("a second sync added %v", synced.Added)
	}
	deploy, builds := synced2(t, root, working)

	type entryOut struct {
		Tier, File, From, Status string
		Pinned                   bool
		SnoozedUntil             string `json:"snoozed_until"`
		ReviewedAt               string `json:"reviewed_at"`
	}
	var out entryOut
	call := func(tool string, args map[string]any) {
		t.Helper()
		out = entryOut{}
		callOK(t, cs, tool, args, &out)
	}
	call("memory_demote", map[string]any{"id": deploy})
	if out.Tier != "register" || out.File != markdown.InboxFile || out.From != working ||
		!strings.Contains(readFile(t, root, markdown.InboxFile), deploy) || strings.Contains(readFile(t, root, working), deploy) {
		t.Fatalf("demote %+v; inbox %q", out, readFile(t, root, markdown.InboxFile))
	}
	call("memory_pin", map[string]any{"id": deploy})
	if !out.Pinned || out.File != markdown.InboxFile || getMemory(t, cs, deploy)["pinned"] != true || !strings.Contains(readFile(t, root, markdown.InboxFile), deploy) {
		t.Fatalf("pin %+v: pinned where its line is", out)
	}
	call("memory_pin", map[string]any{"id": deploy, "pinned": false})
	if out.Pinned || getMemory(t, cs, deploy)["pinned"] != false {
		t.Fatalf("unpin %+v", out)
	}
	call("memory_snooze", map[string]any{"id": deploy, "days": 3})
	want := clock.AddDate(0, 0, 3).Format(time.RFC3339)
	if out.SnoozedUntil != want || getMemory(t, cs, deploy)["snoozed_until"] != want {
		t.Fatalf("snooze %+v, want until %s", out, want)
	}
	call("memory_review", map[string]any{"id": deploy})
	if out.ReviewedAt != clock.Format(time.RFC3339) || getMemory(t, cs, deploy)["reviewed_at"] != out.ReviewedAt {
		t.Fatalf("review %+v", out)
	}
	call("memory_supersede", map[string]any{"id": builds})
	if out.Status != "superseded" || getMemory(t, cs, builds)["status"] != "superseded" {
		t.Fatalf("supersede %+v", out)
	}
	call("memory_archive", map[string]any{"id": deploy})
	if out.Tier != "archive" || !strings.Contains(readFile(t, root, markdown.ArchiveFile), deploy) || strings.Contains(readFile(t, root, working), deploy) {
		t.Fatalf("archive %+v; archive file %q", out, readFile(t, root, markdown.ArchiveFile))
	}

	t.Run("MaintainApply", func(t *testing.T) {
		if msg := callErr(t, cs, "maintain_apply", map[string]any{}); !strings.Contains(msg, "recommended") {
			t.Fatalf("nothing to apply: %q", msg)
		}
		if msg := callErr(t, cs, "maintain_apply", map[string]any{"actions": []map[string]any{{"id": builds, "action": "explode"}}}); !strings.HasPrefix(msg, "invalid: ") {
			t.Fatalf("unknown action: %q", msg)
		}
		var res struct {
			Applied []struct{ ID, Action, File, Tier string }
			Counts  map[string]int
		}
		callOK(t, cs, "maintain_apply", map[string]any{"actions": []map[string]any{{"id": builds, "action": "archive"}}}, &res)
		if len(res.Applied) != 1 || res.Applied[0].ID != builds || res.Applied[0].Tier != "archive" || res.Counts["archive"] != 1 ||
			!strings.Contains(readFile(t, root, markdown.ArchiveFile), builds) || strings.Contains(readFile(t, root, working), builds) {
			t.Fatalf("apply %+v; working %q", res, readFile(t, root, working))
		}
	})
	if msg := callErr(t, cs, "memory_snooze", map[string]any{"id": "tr0000000000"}); !strings.HasPrefix(msg, "not_found: ") {
		t.Fatalf("snooze of a missing memory: %q", msg)
	}
}

// synced2 returns the ids the sync gave the two entries of the working
// file, in their order.
func synced2(t *testing.T, root, working string) (string, string) {
	t.Helper()
	ids := regexp.MustCompile(`\^(tr[0-9a-f]{10})`).FindAllStringSubmatch(readFile(t, root, working), -1)
	if len(ids) != 2 {
		t.Fatalf("ids %v", ids)
	}
	return ids[0][1], ids[1][1]
}

func TestServer_PurgeTools(t *testing.T) {
	cs := connect(t, newEngine(t), nil)
	// Redaction would already remove a real key: the leak here is a word.
	const secret = "bluefalcon"
	callOK(t, cs, "observation_record", map[string]any{"type": "command", "content": "export KEY=" + secret}, nil)
	callOK(t, cs, "observation_record", map[string]any{"type": "command", "content": "go test ./..."}, nil)
	leaked := putMemory(t, cs, map[string]any{"content": "The key is " + secret, "title": "Leaked key"})
	kept := putMemory(t, cs, map[string]any{"content": "Deploys go through staging.", "title": "Deploy"})

	found := func(tool, query string) int {
		var out struct{ Total int }
		var hits struct{ Hits []any }
		if tool == "observation_search" {
			callOK(t, cs, tool, map[string]any{"query": query}, &out)
			return out.Total
		}
		callOK(t, cs, tool, map[string]any{"query": query}, &hits)
		return len(hits.Hits)
	}
	var plan struct {
		DryRun       bool `json:"dry_run"`
		Observations int
		Memories     int
		Sample       []any
	}
	callOK(t, cs, "store_purge_plan", map[string]any{"search": secret}, &plan)
	if !plan.DryRun || plan.Observations != 1 || len(plan.Sample) != 1 {
		t.Fatalf("plan %+v", plan)
	}
	if found("observation_search", "KEY") != 1 {
		t.Fatal("the dry run deleted")
	}
	if msg := callErr(t, cs, "store_purge", map[string]any{"search": secret, "confirm": false}); !strings.Contains(msg, "confirm") {
		t.Fatalf("unconfirmed purge: %q", msg)
	}
	if msg := callErr(t, cs, "store_purge", map[string]any{"search": secret}); !strings.Contains(msg, "confirm") {
		t.Fatalf("purge without confirm: %q", msg)
	}
	if msg := callErr(t, cs, "store_purge", map[string]any{"confirm": true}); !strings.HasPrefix(msg, "invalid: ") {
		t.Fatalf("purge without a filter: %q", msg)
	}
	if found("observation_search", "KEY") != 1 {
		t.Fatal("an unconfirmed purge deleted")
	}
	var done struct {
		DryRun       bool `json:"dry_run"`
		Observations int
		Memories     int
	}
	callOK(t, cs, "store_purge", map[string]any{"search": secret, "confirm": true}, &done)
	if done.DryRun || done.Observations != 1 || found("observation_search", "KEY") != 0 || found("observation_search", "test") != 1 {
		t.Fatalf("purge %+v", done)
	}

	callOK(t, cs, "store_purge_plan", map[string]any{"id": leaked}, &plan)
	if plan.Memories != 1 || found("memory_search", "leaked key") != 1 {
		t.Fatalf("memory plan %+v", plan)
	}
	callOK(t, cs, "store_purge", map[string]any{"id": leaked, "confirm": true}, &done)
	if done.Memories != 1 || found("memory_search", "leaked key") != 0 {
		t.Fatalf("memory purge %+v", done)
	}
	if msg := callErr(t, cs, "memory_history", map[string]any{"id": leaked}); !strings.HasPrefix(msg, "not_found: ") {
		t.Fatalf("a purged memory keeps no history: %q", msg)
	}
	getMemory(t, cs, kept)
}

func TestServer_UpkeepTools(t *testing.T) {
	ctx := context.Background()
	eng := newEngine(t)
	cs := connect(t, eng, nil)
	putMemory(t, cs, map[string]any{"content": "Deploys go through staging."})
	callOK(t, cs, "observation_record", map[string]any{"type": "command", "content": "make build"}, nil)

	var stats struct {
		Memories, Observations int
		DBBytes                int64 `json:"db_bytes"`
	}
	callOK(t, cs, "store_stats", map[string]any{}, &stats)
	if stats.Memories != 1 || stats.Observations != 1 || stats.DBBytes == 0 {
		t.Fatalf("stats %+v", stats)
	}
	var tiers struct {
		Tiers []struct {
			Tier, Kind string
			Count      int
		}
	}
	callOK(t, cs, "store_tiers", map[string]any{}, &tiers)
	counts := map[string]int{}
	for _, s := range tiers.Tiers {
		counts[s.Tier+"/"+s.Kind] += s.Count
	}
	if counts["raw/memories"] != 1 || counts["raw/observations"] != 1 {
		t.Fatalf("tiers %+v", tiers)
	}
	var sweep struct {
		DryRun  bool `json:"dry_run"`
		Deleted int
	}
	callOK(t, cs, "store_sweep", map[string]any{"dry_run": true}, &sweep)
	if !sweep.DryRun || sweep.Deleted != 0 {
		t.Fatalf("sweep %+v", sweep)
	}
	var rollup struct {
		DryRun bool `json:"dry_run"`
		Done   bool
	}
	callOK(t, cs, "rollup_run", map[string]any{}, &rollup)
	if rollup.DryRun || !rollup.Done {
		t.Fatalf("rollup %+v", rollup)
	}
	var reindex struct {
		Model    string
		Memories int
	}
	callOK(t, cs, "store_reindex_status", map[string]any{}, &reindex)
	if reindex.Memories != 1 {
		t.Fatalf("reindex status %+v", reindex)
	}
	var doctor struct {
		OK     bool
		Checks []struct{ Name, Status string }
	}
	callOK(t, cs, "store_doctor", map[string]any{}, &doctor)
	if len(doctor.Checks) < 3 || !strings.HasPrefix(doctor.Checks[1].Name, "integrity") || doctor.Checks[1].Status != "ok" {
		t.Fatalf("doctor %+v", doctor)
	}

	t.Run("Backup", func(t *testing.T) {
		var b1, b2 struct {
			Path   string
			Counts struct{ Memories, Observations int64 }
		}
		callOK(t, cs, "store_backup", map[string]any{}, &b1)
		callOK(t, cs, "store_backup", map[string]any{}, &b2)
		dir := filepath.Join(eng.Location.Dir, "backups")
		if filepath.Dir(b1.Path) != dir || b1.Path == b2.Path || b1.Counts.Memories != 1 || b1.Counts.Observations != 1 {
			t.Fatalf("backups %+v %+v, want two files in %s", b1, b2, dir)
		}
		for _, p := range []string{b1.Path, b2.Path} {
			if fi, err := os.Stat(p); err != nil || fi.Size() == 0 {
				t.Fatalf("backup %s: %v", p, err)
			}
		}
		// The client cannot choose where it goes.
		elsewhere := filepath.Join(t.TempDir(), "stolen.db")
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "store_backup", Arguments: map[string]any{"path": elsewhere}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(elsewhere); err == nil {
			t.Fatalf("store_backup wrote to the client's path (%s)", text(res))
		}
	})
	t.Run("SessionList", func(t *testing.T) {
		var start struct {
			Session struct{ ID string }
		}
		callOK(t, cs, "session_start", map[string]any{"project": "web"}, &start)
		var list struct {
			Sessions []struct{ ID, Project string }
		}
		callOK(t, cs, "session_list", map[string]any{}, &list)
		if len(list.Sessions) != 1 || list.Sessions[0].ID != start.Session.ID || list.Sessions[0].Project != "web" {
			t.Fatalf("sessions %+v, started %s", list, start.Session.ID)
		}
	})
}
