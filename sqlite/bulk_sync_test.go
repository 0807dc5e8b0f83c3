package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
)

// rowQuerier is what writerSettings reads through: the writer's pool or
// a transaction on it.
type rowQuerier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// writerSettings reads the synchronous level (1 NORMAL, 2 FULL) and the
// automatic checkpoint's pages of the connection q runs on.
func writerSettings(t *testing.T, q rowQuerier) (sync, checkpoint int) {
	t.Helper()
	ctx := context.Background()
	if err := q.QueryRowContext(ctx, `PRAGMA synchronous`).Scan(&sync); err != nil {
		t.Fatal(err)
	}
	if err := q.QueryRowContext(ctx, `PRAGMA wal_autocheckpoint`).Scan(&checkpoint); err != nil {
		t.Fatal(err)
	}
	return sync, checkpoint
}

// TestUpdateBulk_SyncedCommitRareCheckpoint: a bulk transaction runs
// with synchronous FULL and the larger automatic checkpoint, and the
// writer has the store's settings back after it, whether it committed or
// rolled back; any other transaction runs with the store's.
func TestUpdateBulk_SyncedCommitRareCheckpoint(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	if s, c := writerSettings(t, db.write); s != 1 || c != 1000 {
		t.Fatalf("store's settings: synchronous %d, checkpoint %d; want 1 (NORMAL), 1000", s, c)
	}
	check := func(name string, bulk bool, fail error, wantSync, wantCheckpoint int) {
		t.Helper()
		err := db.updateWith(ctx, bulk, func(tx *Tx) error {
			if s, c := writerSettings(t, tx); s != wantSync || c != wantCheckpoint {
				t.Errorf("%s: in the transaction synchronous %d, checkpoint %d; want %d, %d", name, s, c, wantSync, wantCheckpoint)
			}
			return fail
		})
		if !errors.Is(err, fail) {
			t.Fatalf("%s: %v", name, err)
		}
		if s, c := writerSettings(t, db.write); s != 1 || c != 1000 {
			t.Errorf("%s: after it synchronous %d, checkpoint %d; want 1, 1000 back", name, s, c)
		}
	}
	check("bulk", true, nil, 2, bulkCheckpointPages)
	check("bulk rolled back", true, errors.New("fails"), 2, bulkCheckpointPages)
	check("plain", false, nil, 1, 1000)
}

// TestImportMemories_BulkBatchesCheckpointRarely: batches of bulkMinRows
// memories let the WAL grow past SQLite's 1,000 pages (each commit
// synced, see setBulkSync), where smaller batches are checkpointed at
// 1,000 as before, and the WAL, restarted after each checkpoint, stays
// under 1,000 pages and a batch; either way the writer has the store's
// settings after.
func TestImportMemories_BulkBatchesCheckpointRarely(t *testing.T) {
	for _, size := range []int{bulkMinRows, bulkMinRows - 1} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			db := openDB(t)
			s := NewMemoryService(db)
			ctx := context.Background()
			filler := strings.Repeat("words of a memory long enough to fill pages ", 200)
			walPages := func() int {
				st, err := os.Stat(db.Path + "-wal")
				if err != nil {
					t.Fatal(err)
				}
				return int((st.Size() - 32) / (pageSize + 24)) // header, then frames
			}
			for k := 0; k < 12; k++ {
				ms := make([]*recall.Memory, size)
				for j := range ms {
					ms[j] = &recall.Memory{Title: fmt.Sprintf("memory %d.%d", k, j), Content: fmt.Sprintf("%s %d %d", filler, k, j)}
				}
				if _, err := s.ImportMemories(ctx, ms); err != nil {
					t.Fatal(err)
				}
			}
			// 12 batches write some 4,000 pages, a batch some 350.
			pages := walPages()
			if size >= bulkMinRows && pages < 2000 {
				t.Errorf("batches of %d: the WAL is %d pages long: it was checkpointed at 1,000", size, pages)
			}
			if size < bulkMinRows && pages >= 1500 {
				t.Errorf("batches of %d: the WAL is %d pages long: not checkpointed at 1,000", size, pages)
			}
			if s, c := writerSettings(t, db.write); s != 1 || c != 1000 {
				t.Errorf("after the batches: synchronous %d, checkpoint %d; want 1, 1000", s, c)
			}
			t.Logf("batches of %d: WAL %d pages", size, pages)
		})
	}
}
