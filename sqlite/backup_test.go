package sqlite_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/sqlite"
	"github.com/recall-mem/recall/sqlite/sqlitetest"
)

// TestBackup_WhileWriting backs a store up while other connections write
// memories (with versions), observations and sessions, then restores the
// backup: the backup is a consistent snapshot (integrity and FTS checks
// pass, each memory's versions are all there), and the restored store
// holds exactly what the backup holds.
func TestBackup_WhileWriting(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := openAt(t, filepath.Join(dir, "live", "recall.db"))
	vs := sqlite.NewVectorService(db, newWordEmbedder("w"), nil)
	vs.Inline = true
	mem := sqlite.NewMemoryService(db)
	seedStream(t, db)
	mustRun(t, newRollups(t, db), recall.RollupRun{Now: day0.AddDate(0, 2, 0)})
	for i := 0; i < 50; i++ {
		res, err := mem.PutMemory(ctx, &recall.Memory{Content: fmt.Sprintf("seed memory %d about deploys", i)})
		if err != nil {
			t.Fatal(err)
		}
		if i%5 == 0 {
			if err := mem.DeleteMemory(ctx, res.Memory.ID); err != nil {
				t.Fatal(err)
			}
		}
	}

	// Writers: other handles on the same file, as other processes would be.
	stop := make(chan struct{})
	var wrote atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < 2; w++ {
		wdb := openAt(t, db.Path)
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			m, o, s := sqlite.NewMemoryService(wdb), sqlite.NewObservationService(wdb), sqlite.NewSessionService(wdb)
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				key := fmt.Sprintf("w%d-k%d", w, i%7)
				if _, err := m.PutMemory(ctx, &recall.Memory{Key: key, Content: fmt.Sprintf("writer %d put %d", w, i)}); err != nil {
					t.Error(err)
					return
				}
				if err := o.RecordObservations(ctx, []*recall.Observation{{Type: "command", Content: fmt.Sprintf("ran %d", i)}}); err != nil {
					t.Error(err)
					return
				}
				if _, err := s.EndSession(ctx, recall.SessionEnd{ID: fmt.Sprintf("s%d-%d", w, i), Summary: "did things"}); err != nil {
					t.Error(err)
					return
				}
				wrote.Add(1)
			}
		}(w)
	}
	for wrote.Load() < 20 { // the backup starts while the writers are busy
	}
	backup := filepath.Join(dir, "backup.db")
	got, err := db.Backup(ctx, backup)
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if got.Memories < 40 || got.Versions <= got.Memories || got.Observations == 0 || got.Sessions == 0 || got.Rollups == 0 || got.Vectors == 0 {
		t.Fatalf("backup holds %+v", got)
	}

	// The backup opens as a store, passes the checks, and each memory's
	// versions are complete (a torn snapshot would miss some).
	b := openAt(t, backup)
	if err := b.Check(ctx); err != nil {
		t.Fatal(err)
	}
	if c, err := b.Counts(ctx); err != nil || c != got {
		t.Fatalf("backup counts %+v (%v), reported %+v", c, err, got)
	}
	bm := sqlite.NewMemoryService(b)
	all, _, err := bm.FindMemories(ctx, recall.MemoryFilter{Status: ptr("*")})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range all {
		vs, err := bm.MemoryVersions(ctx, m.ID)
		if err != nil || len(vs) < m.Version {
			t.Fatalf("memory %s is at version %d but has %d versions (%v)", m.ID, m.Version, len(vs), err)
		}
	}

	t.Run("IntoNewStore", func(t *testing.T) {
		fresh := openAt(t, filepath.Join(dir, "fresh", "recall.db"))
		restored, err := fresh.Restore(ctx, backup, false)
		if err != nil {
			t.Fatal(err)
		}
		if c, err := fresh.Counts(ctx); err != nil || c != got || restored != got {
			t.Fatalf("restored %+v / %+v (%v), backup %+v", c, restored, err, got)
		}
		deleted, _, err := sqlite.NewMemoryService(fresh).FindMemories(ctx, recall.MemoryFilter{Status: ptr("*")})
		if err != nil || int64(len(deleted)) != got.Memories {
			t.Fatalf("restored memories %d (%v), want %d", len(deleted), err, got.Memories)
		}
	})
	t.Run("RefusesNonEmptyWithoutForce", func(t *testing.T) {
		before, _ := db.Counts(ctx)
		if _, err := db.Restore(ctx, backup, false); recall.ErrorCode(err) != recall.ECONFLICT {
			t.Fatalf("err %v, want ECONFLICT", err)
		}
		if after, _ := db.Counts(ctx); after != before {
			t.Fatalf("a refused restore changed the store: %+v -> %+v", before, after)
		}
		// Another handle on the live store (another process) sees the
		// restored content once the restore is done.
		other := openAt(t, db.Path)
		if _, err := db.Restore(ctx, backup, true); err != nil {
			t.Fatal(err)
		}
		if c, err := other.Counts(ctx); err != nil || c != got {
			t.Fatalf("after a forced restore another handle sees %+v (%v), want %+v", c, err, got)
		}
	})
	t.Run("RefusesBadBackup", func(t *testing.T) {
		fresh := openAt(t, filepath.Join(dir, "fresh2", "recall.db"))
		bad := filepath.Join(dir, "bad.db")
		raw, err := os.ReadFile(backup)
		if err != nil {
			t.Fatal(err)
		}
		// A torn copy: the second half is garbage. (One garbled page alone
		// can land in a page's unused space, which no check reads.)
		for i := len(raw) / 2; i < len(raw); i++ {
			raw[i] ^= 0xff
		}
		if err := os.WriteFile(bad, raw, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := fresh.Restore(ctx, bad, false); err == nil {
			t.Fatal("a corrupt backup was restored")
		}
		if c, _ := fresh.Counts(ctx); !c.Empty() {
			t.Fatalf("a refused restore wrote %+v", c)
		}
	})
}

func openAt(t *testing.T, path string) *sqlite.DB { return sqlitetest.OpenAt(t, path) }

// TestRestore_OtherPageSize restores a backup of a store with 4 KiB pages
// (as stores made before 16 KiB pages are) into a new store.
func TestRestore_OtherPageSize(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	oldPath := filepath.Join(dir, "old", "recall.db")
	if err := os.MkdirAll(filepath.Dir(oldPath), 0o700); err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("sqlite", "file:"+oldPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`PRAGMA page_size = 4096; CREATE TABLE x (a); DROP TABLE x`); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	old := openAt(t, oldPath)
	if _, err := sqlite.NewMemoryService(old).PutMemory(ctx, &recall.Memory{Content: "from a 4 KiB store"}); err != nil {
		t.Fatal(err)
	}
	backup := filepath.Join(dir, "old.db")
	want, err := old.Backup(ctx, backup)
	if err != nil {
		t.Fatal(err)
	}
	fresh := openAt(t, filepath.Join(dir, "new", "recall.db"))
	if _, err := fresh.Restore(ctx, backup, false); err != nil {
		t.Fatal(err)
	}
	if got, err := fresh.Counts(ctx); err != nil || got != want {
		t.Fatalf("restored %+v (%v), want %+v", got, err, want)
	}
}
