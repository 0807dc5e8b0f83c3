package postgres_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/internal/pgtest"
	"github.com/recall-mem/recall/postgres"
)

// TestSweep expires observations by type and leaves landmarks, other
// types and other namespaces alone.
func TestSweep(t *testing.T) {
	ctx := context.Background()
	dbURL := pgtest.NewDatabase(t)
	st, other := openStoreAt(t, dbURL, recall.StoreOptions{}), openStoreAt(t, dbURL+"&namespace=other", recall.StoreOptions{})
	old := time.Now().AddDate(0, 0, -100)
	for _, s := range []*postgres.Store{st, other} {
		if err := s.Observations().RecordObservations(ctx, []*recall.Observation{
			{At: old, Type: "file_read", Session: "s", Content: "read a.go"},
			{At: old, Type: "file_read", Session: "s", Content: "read b.go"},
			{At: old, Type: "decision", Session: "s", Content: "chose pgx"},
		}); err != nil {
			t.Fatal(err)
		}
	}
	obs, _, _ := st.Observations().FindObservations(ctx, recall.ObservationFilter{})
	if err := st.Observations().PinObservation(ctx, obs[1].ID, true); err != nil {
		t.Fatal(err)
	}
	p := recall.RetentionPolicy{Enabled: true, Days: map[string]int{"file_read": 30}}
	dry, err := st.Forgetting().Sweep(ctx, p, time.Now(), true)
	if err != nil || dry.Deleted != 1 {
		t.Fatalf("dry sweep = %+v, %v", dry, err)
	}
	rep, err := st.Forgetting().Sweep(ctx, p, time.Now(), false)
	if err != nil || rep.Deleted != 1 || rep.ByType["file_read"] != 1 {
		t.Fatalf("sweep = %+v, %v", rep, err)
	}
	if _, n, _ := st.Observations().FindObservations(ctx, recall.ObservationFilter{}); n != 2 {
		t.Errorf("%d observations left, want the landmark and the decision", n)
	}
	if _, n, _ := other.Observations().FindObservations(ctx, recall.ObservationFilter{}); n != 3 {
		t.Errorf("the sweep took %d observations of another namespace", 3-n)
	}
	if stats, err := st.Forgetting().StoreStats(ctx, time.Now()); err != nil || stats.LastSweep == nil || stats.DBBytes == 0 {
		t.Fatalf("StoreStats = %+v, %v", stats, err)
	}
}

// TestForget_OneAtATime checks that a sweep waits for the namespace's
// purge-and-sweep lock, which another process (here a plain connection)
// holds, and runs once it is released.
func TestForget_OneAtATime(t *testing.T) {
	ctx := context.Background()
	dbURL := pgtest.NewDatabase(t)
	st := openStoreAt(t, dbURL, recall.StoreOptions{})
	holder := connect(t, dbURL)
	const key = `SELECT pg_advisory_lock(hashtext('default'), 2)` // jobForget, see lock.go
	if _, err := holder.Exec(ctx, key); err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	_, err := st.Forgetting().Sweep(short, recall.RetentionPolicy{CompactedDays: 1}, time.Now(), false)
	if !errors.Is(err, context.DeadlineExceeded) && !strings.Contains(errString(err), "timeout") && !strings.Contains(errString(err), "cancel") {
		t.Fatalf("a sweep while another holds the lock = %v: want it to wait", err)
	}
	if _, err := holder.Exec(ctx, `SELECT pg_advisory_unlock_all()`); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Forgetting().Sweep(ctx, recall.RetentionPolicy{CompactedDays: 1}, time.Now(), false); err != nil {
		t.Fatalf("a sweep after the lock was released: %v", err)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestRedactor checks that memories, observations and session texts are
// redacted before they reach the server, with the counts in metadata.
func TestRedactor(t *testing.T) {
	ctx := context.Background()
	st := openStore(t, recall.StoreOptions{Redactor: redactAll{}})
	res, err := st.Memories().PutMemory(ctx, &recall.Memory{Title: "db hunter2", Content: "pw hunter2", Tags: []string{"hunter2"}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := st.Memories().FindMemory(ctx, res.Memory.ID, "")
	if err != nil || strings.Contains(got.Title+got.Content+strings.Join(got.Tags, ","), "hunter2") || !strings.Contains(string(got.Metadata), `"password":3`) {
		t.Fatalf("stored memory = %+v, %v", got, err)
	}
	obs := []*recall.Observation{{Type: "command", Content: "login hunter2", Session: "s"}}
	if err := st.Observations().RecordObservations(ctx, obs); err != nil {
		t.Fatal(err)
	}
	stored, _, err := st.Observations().FindObservations(ctx, recall.ObservationFilter{})
	if err != nil || strings.Contains(stored[0].Content, "hunter2") {
		t.Fatalf("stored observation = %+v, %v", stored, err)
	}
	end, err := st.Sessions(recall.SessionOptions{}).EndSession(ctx, recall.SessionEnd{ID: "s", Summary: "used hunter2"})
	if err != nil || strings.Contains(end.Summary, "hunter2") {
		t.Fatalf("session = %+v, %v", end, err)
	}
	if _, err := st.Memories().PutMemory(ctx, &recall.Memory{Content: strings.Repeat("x", postgres.DefaultMaxContentBytes+1)}); recall.ErrorCode(err) != recall.ETOOLARGE {
		t.Fatalf("an oversized memory: %v", err)
	}
}

// redactAll is a redactor that replaces the word "hunter2".
type redactAll struct{}

func (redactAll) Redact(s string) (string, map[string]int) {
	n := strings.Count(s, "hunter2")
	if n == 0 {
		return s, nil
	}
	return strings.ReplaceAll(s, "hunter2", "[REDACTED:password]"), map[string]int{"password": n}
}

// TestBackup_Restore copies a namespace with its history, observations,
// sessions, rollups and store facts into another database, and refuses
// to replace a namespace that holds data without force.
func TestBackup_Restore(t *testing.T) {
	ctx := context.Background()
	st := openStore(t, recall.StoreOptions{})
	seedStream(t, st)
	m, err := st.Memories().PutMemory(ctx, &recall.Memory{Key: "k", Content: "one"})
	if err != nil {
		t.Fatal(err)
	}
	two := "two"
	if _, err := st.Memories().UpdateMemory(ctx, m.Memory.ID, recall.MemoryUpdate{Content: &two}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Sessions(recall.SessionOptions{}).EndSession(ctx, recall.SessionEnd{ID: "s1", Summary: "done"}); err != nil {
		t.Fatal(err)
	}
	if _, err := rollups(t, st).RunRollups(ctx, recall.RollupRun{Now: day0.AddDate(0, 2, 0)}); err != nil {
		t.Fatal(err)
	}
	if err := st.Tiers().ApplyTierChanges(ctx, recall.TierChanges{Meta: map[string]string{"k": "v"}}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "ns.backup")
	want, err := st.Upkeep().Backup(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	into := openStore(t, recall.StoreOptions{})
	got, err := into.Upkeep().Restore(ctx, path, false)
	if err != nil || got != want {
		t.Fatalf("Restore = %+v, %v: want %+v", got, err, want)
	}
	if v, _ := into.Tiers().StoreMeta(ctx, "k"); v != "v" {
		t.Errorf("store fact after restore = %q", v)
	}
	if vs, err := into.Memories().MemoryVersions(ctx, "k"); err != nil || len(vs) != 2 {
		t.Errorf("versions after restore = %d, %v", len(vs), err)
	}
	if _, err := into.Upkeep().Restore(ctx, path, false); recall.ErrorCode(err) != recall.ECONFLICT {
		t.Fatalf("a restore over data without force: %v", err)
	}
	if got, err := into.Upkeep().Restore(ctx, path, true); err != nil || got != want {
		t.Fatalf("a forced restore = %+v, %v", got, err)
	}
	// New rows get ids after the restored ones.
	if err := into.Observations().RecordObservations(ctx, []*recall.Observation{{Type: "command", Content: "ls"}}); err != nil {
		t.Fatalf("an observation after the restore: %v", err)
	}
}
