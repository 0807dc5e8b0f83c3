package sqlite

import (
	"context"
	"fmt"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/recalltest"
)

// deletedMemory puts "the first memory" and deletes it, returning its id.
func deletedMemory(t *testing.T, s *MemoryService) string {
	t.Helper()
	id := putContent(t, s, "the first memory")
	if err := s.DeleteMemory(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	return id
}

const firstHistory = "1 put the first memory; 2 delete the first memory"

var updated = "updated"

// checkStore runs SQLite's and FTS5's integrity checks and counts the
// rows that point at nothing, and that every memory has one queue row
// and a version row for its version.
func checkStore(t *testing.T, db *DB) {
	t.Helper()
	storeSound(t, db)
	checkNoStrays(t, db)
	var memories, queued, fts, unversioned int
	if err := db.read.QueryRow(`SELECT (SELECT count(*) FROM memories), (SELECT count(*) FROM embed_queue),
		(SELECT count(*) FROM memories_fts), (SELECT count(*) FROM memories m
			WHERE NOT EXISTS (SELECT 1 FROM memory_versions v WHERE v.memory_id = m.id AND v.version = m.version))`).
		Scan(&memories, &queued, &fts, &unversioned); err != nil {
		t.Fatal(err)
	}
	if queued != memories || fts != memories || unversioned != 0 {
		t.Errorf("%d memories, %d queued, %d full-text rows, %d without their version row", memories, queued, fts, unversioned)
	}
}

// A put whose drawn id names a deleted memory's history draws again: the
// history stays as it was, the new memory has one version of its own.
// Before, the put took the id and its version 1 replaced the deleted
// memory's.
func TestPutMemory_DrawnIDWithHistory(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t, nil)
	s := NewMemoryService(db)
	gone := deletedMemory(t, s)

	made := takenIDs(t, gone)
	res, err := s.PutMemory(ctx, &recall.Memory{Content: "a second memory", Tags: []string{"second"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Memory.ID == gone || *made != 2 {
		t.Fatalf("put: id %s after %d draws; want another than %s at the second", res.Memory.ID, *made, gone)
	}
	if h := recalltest.History(t, s, gone); h != firstHistory {
		t.Errorf("history of the deleted memory: %s; want %s", h, firstHistory)
	}
	if h := recalltest.History(t, s, res.Memory.ID); h != "1 put a second memory" {
		t.Errorf("history of the new memory: %s", h)
	}
	checkStore(t, db)

	// Ten draws that all name the history give up, writing nothing.
	takenIDs(t, gone, gone, gone, gone, gone, gone, gone, gone, gone, gone)
	if _, err := s.PutMemory(ctx, &recall.Memory{Content: "never stored"}); recall.ErrorCode(err) != recall.ECONFLICT {
		t.Fatalf("ten draws with a history: %v, want ECONFLICT", err)
	}
	if h := recalltest.History(t, s, gone); h != firstHistory {
		t.Errorf("history after ten draws: %s", h)
	}
	checkStore(t, db)
}

// An import whose drawn ids name a deleted memory's history draws again,
// in a batch of one (rows written one at a time) and in one that fills
// the multi-row statement, with the taken id in its middle: the memory is
// taken back (row, full-text row, tags, queue row) and inserted again.
func TestImportMemories_DrawnIDWithHistory(t *testing.T) {
	ctx := context.Background()
	for _, n := range []int{1, pendingBatch + 5} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			db := openTemp(t, nil)
			s := NewMemoryService(db)
			gone := deletedMemory(t, s)
			ids := make([]string, n)
			at := n / 2
			for i := range ids {
				ids[i] = recall.NewID()
			}
			ids[at] = gone
			made := takenIDs(t, ids...)
			batch := make([]*recall.Memory, n)
			for i := range batch {
				batch[i] = &recall.Memory{Content: fmt.Sprintf("batched %d", i), Tags: []string{"batch", fmt.Sprintf("t%d", i)}}
			}
			res, err := s.ImportMemories(ctx, batch)
			if err != nil || res.Added != n {
				t.Fatalf("import: %+v, %v", res, err)
			}
			if *made != n+1 {
				t.Errorf("%d draws for %d memories and one id with a history, want %d", *made, n, n+1)
			}
			if h := recalltest.History(t, s, gone); h != firstHistory {
				t.Errorf("history of the deleted memory: %s; want %s", h, firstHistory)
			}
			all, _, err := s.FindMemories(ctx, recall.MemoryFilter{})
			if err != nil || len(all) != n {
				t.Fatalf("%d memories (%v), want %d", len(all), err, n)
			}
			for _, m := range all {
				if m.ID == gone || m.Version != 1 {
					t.Errorf("memory %s version %d", m.ID, m.Version)
				}
			}
			var tagged int
			if err := db.read.QueryRow(`SELECT count(*) FROM memory_tags t JOIN memories m ON m.seq = t.seq WHERE t.tag = 'batch'`).Scan(&tagged); err != nil || tagged != n {
				t.Errorf("%d memories tagged (%v), want %d", tagged, err, n)
			}
			checkStore(t, db)
		})
	}
}

// An import keeping the id of a deleted memory continues its history: the
// memory comes back as the version after the deletion, the earlier
// versions untouched, and a later update follows on. Before, the import's
// version 1 replaced the first memory's, and the update replaced the
// deletion.
func TestImportMemories_GivenIDWithHistory(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t, nil)
	s := NewMemoryService(db)
	gone := deletedMemory(t, s)
	res, err := s.ImportMemories(ctx, []*recall.Memory{{ID: gone, Content: "imported again"}})
	if err != nil || res.Added != 1 {
		t.Fatalf("import: %+v, %v", res, err)
	}
	want := firstHistory + "; 3 import imported again"
	if h := recalltest.History(t, s, gone); h != want {
		t.Errorf("history: %s; want %s", h, want)
	}
	m, err := s.FindMemory(ctx, gone, "")
	if err != nil || m.Version != 3 {
		t.Fatalf("memory: %+v, %v; want version 3", m, err)
	}
	if _, err := s.UpdateMemory(ctx, gone, recall.MemoryUpdate{Content: &updated}); err != nil {
		t.Fatal(err)
	}
	want += "; 4 update updated"
	if h := recalltest.History(t, s, gone); h != want {
		t.Errorf("history: %s; want %s", h, want)
	}
	checkStore(t, db)

	// A version given beyond the history's last is kept.
	gone2 := deletedMemory(t, s)
	if _, err := s.ImportMemories(ctx, []*recall.Memory{{ID: gone2, Content: "at seven", Version: 7}}); err != nil {
		t.Fatal(err)
	}
	if h := recalltest.History(t, s, gone2); h != firstHistory+"; 7 import at seven" {
		t.Errorf("history: %s", h)
	}
	checkStore(t, db)
}

// A store whose history an older recall overwrote can hold a version past
// its live memory's: an update or a deletion writes after the last
// version instead of over it.
func TestUpdateMemory_HistoryPastTheLiveRow(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t, nil)
	s := NewMemoryService(db)
	id := putContent(t, s, "live at version 1")
	if _, err := db.write.Exec(`INSERT INTO memory_versions (memory_id, version, op, changed_at, snapshot, content) VALUES (?, 2, 'delete', 1, '{}', 'an older memory')`, id); err != nil {
		t.Fatal(err)
	}
	m, err := s.UpdateMemory(ctx, id, recall.MemoryUpdate{Content: &updated})
	if err != nil || m.Version != 3 {
		t.Fatalf("update: %+v, %v; want version 3", m, err)
	}
	if err := s.DeleteMemory(ctx, id); err != nil {
		t.Fatal(err)
	}
	want := "1 put live at version 1; 2 delete an older memory; 3 update updated; 4 delete updated"
	if h := recalltest.History(t, s, id); h != want {
		t.Errorf("history: %s; want %s", h, want)
	}
	checkStore(t, db)
}

// checkNoStrays fails the test when a queue row or a vector row names a
// memory row that is not there, or a memory has neither (it would never
// be embedded, or is embedded for a row taken back).
func checkNoStrays(t *testing.T, db *DB) {
	t.Helper()
	var strayQueue, strayVectors, unembedded int
	if err := db.read.QueryRow(`SELECT
		(SELECT count(*) FROM embed_queue q WHERE NOT EXISTS (SELECT 1 FROM memories m WHERE m.seq = q.memory_seq)),
		(SELECT count(*) FROM memory_vectors v WHERE NOT EXISTS (SELECT 1 FROM memories m WHERE m.seq = v.memory_seq)),
		(SELECT count(*) FROM memories m WHERE NOT EXISTS (SELECT 1 FROM embed_queue q WHERE q.memory_seq = m.seq)
			AND NOT EXISTS (SELECT 1 FROM memory_vectors v WHERE v.memory_seq = m.seq))`).
		Scan(&strayQueue, &strayVectors, &unembedded); err != nil {
		t.Fatal(err)
	}
	if strayQueue+strayVectors+unembedded != 0 {
		t.Errorf("%d queue rows and %d vector rows for no memory; %d memories neither queued nor embedded", strayQueue, strayVectors, unembedded)
	}
}

// An import whose drawn ids name deleted memories' histories at the edge
// of the versions' multi-row statement: the memory whose version fills
// it (the 64th) sets off the flush that takes it back, and two such in
// one statement. Queued and embedding in the transaction alike, every
// memory ends with its own queue row or vectors, and nothing is left for
// a row taken back. Before, the 64th's vectors were written again for
// its old row: the import failed on the vectors' key, or left a queue
// row or vectors for no memory.
func TestImportMemories_HistoryAtTheStatementEdge(t *testing.T) {
	ctx := context.Background()
	for _, at := range [][]int{{pendingBatch - 1}, {pendingBatch}, {0}, {10, pendingBatch - 1}} {
		for _, inline := range []bool{false, true} {
			t.Run(fmt.Sprint(at, inline), func(t *testing.T) {
				db := openTemp(t, nil)
				s := NewMemoryService(db)
				if inline {
					NewVectorService(db, spikeEmbedder{}, nil).Inline = true
				}
				n := pendingBatch + 5
				ids := make([]string, n)
				for i := range ids {
					ids[i] = recall.NewID()
				}
				var gone []string
				for _, i := range at {
					ids[i] = deletedMemory(t, s)
					gone = append(gone, ids[i])
				}
				takenIDs(t, ids...)
				batch := make([]*recall.Memory, n)
				for i := range batch {
					batch[i] = &recall.Memory{Content: fmt.Sprintf("batched %d", i), Tags: []string{"batch"}}
				}
				if res, err := s.ImportMemories(ctx, batch); err != nil || res.Added != n {
					t.Fatalf("import: %+v, %v", res, err)
				}
				for _, id := range gone {
					if h := recalltest.History(t, s, id); h != firstHistory {
						t.Errorf("history of the deleted memory: %s; want %s", h, firstHistory)
					}
				}
				storeSound(t, db)
				checkNoStrays(t, db)
			})
		}
	}
}
