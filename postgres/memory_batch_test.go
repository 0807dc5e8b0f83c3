package postgres

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/internal/pgtest"
)

// statements records every statement the pool sends: plain ones, those
// of a pipelined batch and COPYs.
type statements struct {
	mu  sync.Mutex
	sql []string
}

func (s *statements) add(q string) {
	s.mu.Lock()
	s.sql = append(s.sql, q)
	s.mu.Unlock()
}

// take returns the statements recorded since the last take.
func (s *statements) take() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.sql
	s.sql = nil
	return out
}

func (s *statements) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	s.add(d.SQL)
	return ctx
}
func (s *statements) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}
func (s *statements) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	return ctx
}
func (s *statements) TraceBatchQuery(_ context.Context, _ *pgx.Conn, d pgx.TraceBatchQueryData) {
	s.add(d.SQL)
}
func (s *statements) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData) {}
func (s *statements) TraceCopyFromStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceCopyFromStartData) context.Context {
	s.add("COPY " + d.TableName.Sanitize())
	return ctx
}
func (s *statements) TraceCopyFromEnd(context.Context, *pgx.Conn, pgx.TraceCopyFromEndData) {}

// traced opens a store over a fresh database whose statements are
// recorded.
func traced(t *testing.T) (*DB, *statements) {
	t.Helper()
	st := &statements{}
	db, err := open(context.Background(), pgtest.NewDatabase(t), func(c *pgxpool.Config) { c.ConnConfig.Tracer = st })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	st.take() // the migrations
	return db, st
}

func newMemories(first, n int) []*recall.Memory {
	out := make([]*recall.Memory, n)
	for i := range out {
		out[i] = &recall.Memory{Title: fmt.Sprintf("memory %d", first+i), Content: fmt.Sprintf("the content of memory %d", first+i), Tags: []string{"t"}}
	}
	return out
}

// TestImportMemories_StatementsDoNotGrow: a batch of new memories costs
// the same few statements whatever its size, not one or two per memory,
// and every memory is written with its first version.
func TestImportMemories_StatementsDoNotGrow(t *testing.T) {
	ctx := context.Background()
	db, st := traced(t)
	s := NewMemoryService(db)
	count := func(ms []*recall.Memory) int {
		if _, err := s.ImportMemories(ctx, ms); err != nil {
			t.Fatal(err)
		}
		return len(st.take())
	}
	small, large := count(newMemories(0, 5)), count(newMemories(5, 300))
	if large != small || large > 8 {
		t.Fatalf("statements for 5 memories %d, for 300 memories %d: want the same few", small, large)
	}
	ms, total, err := s.FindMemories(ctx, recall.MemoryFilter{Limit: 1})
	if err != nil || total != 305 {
		t.Fatalf("FindMemories total %d, %v: want 305", total, err)
	}
	vs, err := s.MemoryVersions(ctx, ms[0].ID)
	if err != nil || len(vs) != 1 || vs[0].Version != 1 || vs[0].Op != "import" || vs[0].Memory.Content != ms[0].Content {
		t.Fatalf("versions of %s = %+v, %v", ms[0].ID, vs, err)
	}
}

// TestWrites_NoSavepoints: a put, an update and a put of a new key take
// no savepoint: a clash fails the transaction, which is given up anyway.
func TestWrites_NoSavepoints(t *testing.T) {
	ctx := context.Background()
	db, st := traced(t)
	s := NewMemoryService(db)
	res, err := s.PutMemory(ctx, &recall.Memory{Key: "k", Content: "first"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutMemory(ctx, &recall.Memory{Key: "k", Content: "second"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.UpdateMemory(ctx, res.Memory.ID, recall.MemoryUpdate{Content: ptr("third")}); err != nil {
		t.Fatal(err)
	}
	for _, q := range st.take() {
		if strings.Contains(strings.ToLower(q), "savepoint") {
			t.Fatalf("statement %q: want no savepoints", q)
		}
	}
	vs, err := s.MemoryVersions(ctx, "k")
	if err != nil || len(vs) != 3 || vs[2].Memory.Content != "third" {
		t.Fatalf("versions %+v, %v: want three", vs, err)
	}
	// A taken key still fails, and leaves nothing behind.
	other, err := s.PutMemory(ctx, &recall.Memory{Key: "other", Content: "x"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.UpdateMemory(ctx, other.Memory.ID, recall.MemoryUpdate{Key: ptr("k")})
	if recall.ErrorCode(err) != recall.ECONFLICT {
		t.Fatalf("update onto a taken key: %v, want ECONFLICT", err)
	}
}

// TestImportMemories_Conflicts: a key taken in the store, or a pinned
// title taken in the batch or the store, refuses the import, names the
// memory and writes nothing.
func TestImportMemories_Conflicts(t *testing.T) {
	ctx := context.Background()
	db, _ := traced(t)
	s := NewMemoryService(db)
	if _, err := s.PutMemory(ctx, &recall.Memory{Key: "taken", Title: "Pinned", Pinned: true, Content: "x"}); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		ms   []*recall.Memory
		want string
	}{
		"KeyInStore":   {[]*recall.Memory{{Content: "a"}, {Key: "taken", Content: "b"}}, "Memory 2 "},
		"PinInStore":   {[]*recall.Memory{{Title: "PINNED", Pinned: true, Content: "a"}}, "Memory 1 "},
		"PinInBatch":   {[]*recall.Memory{{Title: "t", Pinned: true, Content: "a"}, {Content: "b"}, {Title: "T", Pinned: true, Content: "c"}}, "Memory 3 "},
		"KeyOtherColl": {[]*recall.Memory{{Key: "taken", Collection: "other", Content: "a"}}, ""},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := s.ImportMemories(ctx, c.ms)
			if c.want == "" {
				if err != nil {
					t.Fatalf("ImportMemories: %v", err)
				}
				return
			}
			if recall.ErrorCode(err) != recall.ECONFLICT || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("ImportMemories: %v, want ECONFLICT naming %q", err, c.want)
			}
		})
	}
	if _, total, _ := s.FindMemories(ctx, recall.MemoryFilter{Status: ptr("*")}); total != 2 {
		t.Fatalf("%d memories: want the put and the one import that passed", total)
	}
}

func ptr[T any](v T) *T { return &v }

// TestFindMemories_UnpagedIsOneStatement: loading memories by id without
// a page, as the searcher loads its candidates on every hybrid search,
// is one statement, its rows being the total; a page still counts every
// match.
func TestFindMemories_UnpagedIsOneStatement(t *testing.T) {
	ctx := context.Background()
	db, st := traced(t)
	s := NewMemoryService(db)
	ms := newMemories(0, 5)
	for i, m := range ms {
		m.ID = fmt.Sprintf("tr%010x", i+1)
	}
	if _, err := s.ImportMemories(ctx, ms); err != nil {
		t.Fatal(err)
	}
	ids := []string{ms[0].ID, ms[2].ID, ms[4].ID}
	st.take()
	ms, total, err := s.FindMemories(ctx, recall.MemoryFilter{IDs: append(ids, "no-such-id")})
	if err != nil || len(ms) != 3 || total != 3 {
		t.Fatalf("FindMemories by 3 ids and a missing one: %d memories, total %d, %v; want 3, 3", len(ms), total, err)
	}
	if got := st.take(); len(got) != 1 {
		t.Fatalf("FindMemories by id sent %d statements: want 1\n%q", len(got), got)
	}
	for _, f := range []recall.MemoryFilter{{Limit: 2}, {Offset: 1}, {IDs: ids, Limit: 1}} {
		ms, total, err := s.FindMemories(ctx, f)
		want := 5
		if f.IDs != nil {
			want = 3
		}
		rows := want - f.Offset
		if f.Limit > 0 {
			rows = min(rows, f.Limit)
		}
		if err != nil || total != want || len(ms) != rows {
			t.Fatalf("FindMemories(%+v): %d memories, total %d, %v; want total %d", f, len(ms), total, err, want)
		}
	}
}
