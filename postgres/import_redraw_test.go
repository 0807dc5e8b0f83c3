package postgres

import (
	"context"
	"testing"
	"time"

	"github.com/recall-mem/recall"
)

// drawFirst makes the first id drawn id, the rest fresh ones, until the
// test ends.
func drawFirst(t *testing.T, id string) {
	draws := 0
	newID = func() string {
		if draws++; draws == 1 {
			return id
		}
		return recall.NewID()
	}
	t.Cleanup(func() { newID = recall.NewID })
}

// importBesideWriter imports ms while another transaction inserts a
// memory with id taken and commits only once the import waits on it: the
// import's check of its ids found taken free, its COPY meets it. The
// import's first generated id is taken.
func importBesideWriter(t *testing.T, db *DB, taken string, ms []*recall.Memory) (*recall.ImportResult, error) {
	t.Helper()
	ctx := context.Background()
	drawFirst(t, taken)
	inserted, release, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		done <- db.tx(ctx, func(tx *Tx) error {
			if err := tx.insert(ctx, &recall.Memory{ID: taken, Content: "another writer's memory"}, "put"); err != nil {
				return err
			}
			close(inserted)
			<-release
			return nil
		})
	}()
	<-inserted
	type result struct {
		res *recall.ImportResult
		err error
	}
	out := make(chan result, 1)
	go func() {
		res, err := NewMemoryService(db).ImportMemories(ctx, ms)
		out <- result{res, err}
	}()
	// Let the writer commit only once the import waits for its row lock
	// (or, had it not met the row, has finished).
	for waiting := 0; waiting == 0 && len(out) == 0; {
		if err := db.pool.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND wait_event_type = 'Lock'`).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	r := <-out
	return r.res, r.err
}

// TestImportMemories_GeneratedIDTakenMeanwhile: another writer takes an
// id the import drew, between its check and its COPY: the import draws
// again and writes everything, leaving the other memory as it was.
func TestImportMemories_GeneratedIDTakenMeanwhile(t *testing.T) {
	ctx := context.Background()
	db, _ := traced(t)
	const taken = "tr0000000001"
	res, err := importBesideWriter(t, db, taken, []*recall.Memory{{Content: "an imported memory"}, {Content: "another"}})
	if err != nil {
		t.Fatalf("import with a drawn id another writer took meanwhile: %v", err)
	}
	if res.Added != 2 {
		t.Fatalf("added %d, want 2", res.Added)
	}
	s := NewMemoryService(db)
	all, total, err := s.FindMemories(ctx, recall.MemoryFilter{Status: ptr("*")})
	if err != nil || total != 3 {
		t.Fatalf("%d memories (%v): want the other writer's and the two imported", total, err)
	}
	for _, m := range all {
		if m.ID == taken && m.Content != "another writer's memory" {
			t.Fatalf("the other writer's memory became %q", m.Content)
		}
	}
	if vs, err := s.MemoryVersions(ctx, taken); err != nil || len(vs) != 1 {
		t.Fatalf("versions of %s: %d (%v), want its one", taken, len(vs), err)
	}
}

// TestImportMemories_GivenIDTakenMeanwhile: an id the user gave, taken by
// another writer meanwhile, is not drawn again: the import is refused
// and writes nothing (the batch's drawn id does not take it either).
func TestImportMemories_GivenIDTakenMeanwhile(t *testing.T) {
	ctx := context.Background()
	db, _ := traced(t)
	const taken = "tr0000000002"
	_, err := importBesideWriter(t, db, taken, []*recall.Memory{{ID: "tr0000000004", Content: "a"}, {ID: taken, Content: "given"}, {Content: "drawn"}})
	if recall.ErrorCode(err) != recall.ECONFLICT {
		t.Fatalf("import of a given id another writer took meanwhile: %v, want ECONFLICT", err)
	}
	if _, total, _ := NewMemoryService(db).FindMemories(ctx, recall.MemoryFilter{Status: ptr("*")}); total != 1 {
		t.Fatalf("%d memories: want the other writer's alone", total)
	}
}

// TestImportMemories_DrawnIDOfDeletedMemory: a drawn id that names a
// deleted memory, whose history is kept, meets that history at the COPY
// of versions: the import draws again, and the history stays as it was.
func TestImportMemories_DrawnIDOfDeletedMemory(t *testing.T) {
	ctx := context.Background()
	db, _ := traced(t)
	s := NewMemoryService(db)
	gone := deletedMemory(t, s)
	drawFirst(t, gone)
	res, err := s.ImportMemories(ctx, []*recall.Memory{{Content: "imported"}})
	if err != nil || res.Added != 1 {
		t.Fatalf("import whose drawn id names a deleted memory: %+v, %v", res, err)
	}
	if vs, err := s.MemoryVersions(ctx, gone); err != nil || len(vs) != 2 || vs[1].Op != "delete" {
		t.Fatalf("history of the deleted memory: %d versions (%v), want its put and its deletion", len(vs), err)
	}
}
