package sqlite

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/recall-mem/recall"
	"modernc.org/libc"
	lib "modernc.org/sqlite/lib"
)

// wordyStore returns a memory service over a store of 3,000 memories
// of a few texts: large enough (2,000 rows or more) that a search counts
// its words' matches to choose them (matchExpr).
func wordyStore(t *testing.T) *MemoryService {
	t.Helper()
	s := NewMemoryService(openDB(t))
	templates := []string{
		"alpha beta", "alpha beta beta gamma", "alpha gamma delta", "beta delta",
		"alpha alpha beta delta epsilon", "gamma epsilon", "alpha",
	}
	var batch []*recall.Memory
	for i := range 3000 {
		m := &recall.Memory{Content: templates[i%len(templates)]}
		if i%11 == 0 {
			m.Title = "beta notes"
		}
		if i%13 == 0 {
			m.Tags = []string{"gamma"}
		}
		batch = append(batch, m)
	}
	if _, err := s.ImportMemories(context.Background(), batch); err != nil {
		t.Fatal(err)
	}
	return s
}

// reprepares returns, for each statement open on the reader pool's one
// connection, how many times SQLite prepared it again, by its SQL. The
// driver exposes no statement counters, so this reaches into its
// connection (the handle and thread state modernc keeps in db and tls)
// and asks SQLite (sqlite3_stmt_status).
func reprepares(t *testing.T, db *DB) map[string]int {
	t.Helper()
	c, err := db.read.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	out := map[string]int{}
	err = c.Raw(func(dc any) error {
		v := reflect.ValueOf(dc).Elem()
		h, state := v.FieldByName("db"), v.FieldByName("tls")
		if !h.IsValid() || !state.IsValid() {
			t.Fatalf("the driver's connection %T has no db and tls fields", dc)
		}
		handle := uintptr(h.Uint())
		tls := (*libc.TLS)(unsafe.Pointer(state.Pointer()))
		for p := lib.Xsqlite3_next_stmt(tls, handle, 0); p != 0; p = lib.Xsqlite3_next_stmt(tls, handle, p) {
			sql := strings.Join(strings.Fields(libc.GoString(lib.Xsqlite3_sql(tls, p))), " ")
			out[sql] += int(lib.Xsqlite3_stmt_status(tls, p, lib.SQLITE_STMTSTATUS_REPREPARE, 0))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSearch_StatementsPreparedOnce: the full-text statements a search
// runs (the match counts that pick its words, the scoring of its window)
// are prepared once and reused, whatever the words and window sizes:
// with a bare `LIMIT ?` SQLite prepared both again at every run.
func TestSearch_StatementsPreparedOnce(t *testing.T) {
	s := wordyStore(t)
	s.db.read.SetMaxOpenConns(1) // one reader holds every statement
	ctx := context.Background()
	runs := 0
	for _, q := range []string{"alpha beta", "gamma", "delta epsilon", "beta", "epsilon alpha"} {
		for _, limit := range []int{10, 100, 700} {
			if _, err := s.Search(ctx, recall.SearchQuery{Text: q, Limit: limit}); err != nil {
				t.Fatal(err)
			}
			runs++
		}
	}
	seen := 0
	for sql, n := range reprepares(t, s.db) {
		if !strings.Contains(sql, "memories_fts MATCH") {
			continue
		}
		seen++
		if n != 0 {
			t.Errorf("prepared again %d times over %d searches: %s", n, runs, sql)
		}
	}
	if seen != 2 {
		t.Fatalf("%d full-text statements kept, want 2 (the count and the window)", seen)
	}
}

// searchedVectors is a store of 20 memories on one reader (which then
// holds every statement) after five vector searches, inline or not (a
// search that is not drains the embedding queue first).
func searchedVectors(t *testing.T, inline bool) *DB {
	t.Helper()
	ctx := context.Background()
	db := openDB(t)
	db.read.SetMaxOpenConns(1)
	vs := NewVectorService(db, spikeEmbedder{}, nil)
	vs.Inline = inline
	var ms []*recall.Memory
	for i := range 20 {
		ms = append(ms, &recall.Memory{Content: strings.Repeat("w ", i%8+1)})
	}
	if _, err := NewMemoryService(db).ImportMemories(ctx, ms); err != nil {
		t.Fatal(err)
	}
	for range 5 {
		if _, err := vs.SearchVectors(ctx, "w w w", 3); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

// TestVectorSearch_IndexCheckKept: the check every vector search makes
// that its index is current (unchanged: the index's stamp and the stored
// model in one statement) runs a kept statement, not one prepared and
// thrown away at each search.
func TestVectorSearch_IndexCheckKept(t *testing.T) {
	db := searchedVectors(t, true)
	kept := false
	for sql, n := range reprepares(t, db) {
		if strings.Contains(sql, "vector_tombstones") && strings.Contains(sql, "store_meta WHERE key = ?") {
			kept = true
			if n != 0 {
				t.Errorf("prepared again %d times: %s", n, sql)
			}
		}
	}
	if !kept {
		t.Fatal("the index check's statement is not kept: it is prepared at every search")
	}
}

// TestVectorSearch_QueueStatementsKept: a vector search that drains the
// embedding queue a little first (not Inline: a search process, a remote
// provider) checks the stored model and reads the queue with kept
// statements, not ones prepared and thrown away at every search; the
// queue's LIMIT is bound so that it is not prepared again either.
func TestVectorSearch_QueueStatementsKept(t *testing.T) {
	db := searchedVectors(t, false)
	model, queue := false, false
	for sql, n := range reprepares(t, db) {
		switch {
		case strings.Contains(sql, "store_meta WHERE key = ?") && !strings.Contains(sql, "vector_tombstones"):
			model = true
		case strings.Contains(sql, "FROM embed_queue q CROSS JOIN memories m"):
			queue = true
		default:
			continue
		}
		if n != 0 {
			t.Errorf("prepared again %d times: %s", n, sql)
		}
	}
	if !model || !queue {
		t.Fatalf("kept: the model check %v, the queue read %v; want both", model, queue)
	}
}
