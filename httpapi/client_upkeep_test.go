package httpapi_test

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/httpapi"
	"github.com/recall-mem/recall/maintain"
)

// TestClient_UpkeepRoutes drives the new routes through the Go client
// against a real server and checks what they did to the store.
func TestClient_UpkeepRoutes(t *testing.T) {
	ctx := context.Background()
	eng := openEngine(t)
	_, c := newServer(t, &httpapi.Server{Engine: eng, Loopback: true})
	put, err := c.PutMemory(ctx, &recall.Memory{Key: "deploy", Tier: recall.TierWorking, Content: "Deploys run on Fridays."})
	if err != nil {
		t.Fatal(err)
	}
	id := put.Memory.ID
	if _, err := c.UpdateMemory(ctx, id, recall.MemoryUpdate{Content: ptr("Deploys run on Thursdays.")}); err != nil {
		t.Fatal(err)
	}
	if d, err := c.Diff(ctx, "deploy", 1, 2); err != nil || !strings.Contains(d, "+Deploys run on Thursdays.") {
		t.Fatalf("diff %q %v", d, err)
	}
	if _, err := c.Diff(ctx, "deploy", 1, 9); recall.ErrorCode(err) != recall.ENOTFOUND {
		t.Fatalf("diff to a missing version: %v", err)
	}
	if p, err := c.PlanSync(ctx); err != nil || len(p.Appended) != 1 {
		t.Fatalf("plan sync %+v %v", p, err)
	}
	if r, err := c.Sync(ctx); err != nil || len(r.Files) == 0 {
		t.Fatalf("sync %+v %v", r, err)
	}
	if a, err := c.Act(ctx, "deploy", "snooze", 5); err != nil || a.ID != id {
		t.Fatalf("snooze %+v %v", a, err)
	}
	if _, err := c.Act(ctx, "deploy", "pin", 0); err != nil {
		t.Fatal(err)
	}
	if m, err := c.FindMemory(ctx, id, ""); err != nil || !m.Pinned || m.SnoozedUntil == nil {
		t.Fatalf("after snooze and pin: %+v %v", m, err)
	}
	if res, err := c.ApplyMaintenance(ctx, []maintain.Choice{{ID: id, Action: "unpin"}}, false, 0); err != nil || len(res.Applied) != 1 {
		t.Fatalf("maintain apply %+v %v", res, err)
	}
	if m, _ := c.FindMemory(ctx, id, ""); m.Pinned {
		t.Fatal("maintain apply unpin left it pinned")
	}
	if r, err := c.RunRollups(ctx, true); err != nil || !r.DryRun {
		t.Fatalf("rollups %+v %v", r, err)
	}
	if ts, err := c.Tiers(ctx); err != nil || len(ts) == 0 {
		t.Fatalf("tiers %+v %v", ts, err)
	}

	if err := c.RecordObservations(ctx, []*recall.Observation{{Type: "note", Content: "the zebra crossed"}}); err != nil {
		t.Fatal(err)
	}
	cr := recall.PurgeCriteria{Search: "zebra"}
	if r, err := c.PlanPurge(ctx, cr, 2); err != nil || r.Observations != 1 || len(r.Sample) != 1 {
		t.Fatalf("plan purge %+v %v", r, err)
	}
	if r, err := c.Purge(ctx, cr); err != nil || r.Observations != 1 {
		t.Fatalf("purge %+v %v", r, err)
	}
	if _, err := c.Purge(ctx, recall.PurgeCriteria{}); recall.ErrorCode(err) != recall.EINVALID {
		t.Fatalf("purge without a filter: %v", err)
	}
	if r, err := c.Sweep(ctx, true); err != nil || !r.DryRun {
		t.Fatalf("sweep %+v %v", r, err)
	}
	if st, err := c.Stats(ctx); err != nil || st.Memories != 1 || st.Observations != 0 {
		t.Fatalf("stats %+v %v", st, err)
	}
	if vs, err := c.ReindexStatus(ctx); err != nil || vs.Memories != 1 {
		t.Fatalf("reindex status %+v %v", vs, err)
	}
	if cs, err := c.Doctor(ctx); err != nil || len(cs) < 3 {
		t.Fatalf("doctor %+v %v", cs, err)
	}
	var buf bytes.Buffer
	if err := c.Export(ctx, recall.MemoryFilter{}, &buf); err != nil || !strings.Contains(buf.String(), `"Deploys run on Thursdays."`) || strings.Count(buf.String(), "\n") != 1 {
		t.Fatalf("export %q %v", buf.String(), err)
	}
	ms, err := engine.DecodeMemoryLines(buf.Bytes())
	if err != nil || len(ms) != 1 || ms[0].ID != id {
		t.Fatalf("the export does not read back: %+v %v", ms, err)
	}
	path, counts, err := c.Backup(ctx)
	if err != nil || counts.Memories != 1 || !strings.HasPrefix(path, eng.Location.Dir) {
		t.Fatalf("backup %q %+v %v", path, counts, err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
}
