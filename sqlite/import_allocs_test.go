package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/recall-mem/recall"
)

// importAllocsPerMemory is what writing one memory of a batched import
// may allocate at most (validation, redaction and the statements), for
// a memory with a title, content and one tag. The statements go to the
// driver's connection directly (execRaw): through database/sql, which
// converts each statement's arguments into a slice of its own and wraps
// its result, they took 15 more (62); the tag rows, 64 to a statement
// (pendingRows), 3 fewer.
const importAllocsPerMemory = 46

// TestImportMemories_Allocations: a batched import allocates at most
// importAllocsPerMemory times per memory. Each statement's arguments were
// a slice allocated per call and the row's a slice built twice; the
// driver's conversions are most of what is left.
//
// Under a context that can end (the CLI's, which a signal ends) the
// driver watched it around every statement with a goroutine of its own:
// 20 allocations a memory more, and a quarter of the CPU.
func TestImportMemories_Allocations(t *testing.T) {
	t.Run("background", func(t *testing.T) { importAllocs(t, context.Background()) })
	t.Run("cancellable", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		importAllocs(t, ctx)
	})
}

func importAllocs(t *testing.T, ctx context.Context) {
	db := NewDB(filepath.Join(t.TempDir(), "recall.db"))
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s := NewMemoryService(db)
	const batch = 200
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	next := 0
	mk := func() []*recall.Memory {
		ms := make([]*recall.Memory, batch)
		for i := range ms {
			next++
			ms[i] = &recall.Memory{Title: fmt.Sprintf("Memory %d", next), Content: fmt.Sprintf("Deploys of service %d go through staging first", next),
				OccurredAt: base.Add(time.Duration(next) * time.Minute), Tags: []string{fmt.Sprintf("t%d", next%50)}}
		}
		return ms
	}
	// The statements are prepared by the first write.
	if _, err := s.ImportMemories(ctx, mk()); err != nil {
		t.Fatal(err)
	}
	var ms []*recall.Memory
	n := testing.AllocsPerRun(5, func() {
		if _, err := s.ImportMemories(ctx, ms); err != nil {
			t.Fatal(err)
		}
		ms = mk()
	})
	// AllocsPerRun runs the function once more than it counts; making up
	// the next batch is counted and taken off here.
	made := testing.AllocsPerRun(5, func() { _ = mk() })
	per := (n - made) / batch
	t.Logf("%.1f allocations a memory", per)
	if per > importAllocsPerMemory {
		t.Errorf("%.1f allocations a memory, want at most %d", per, importAllocsPerMemory)
	}
}

// stringsText encodes a list of strings exactly as jsonText does, whether
// it takes the short way (plain ASCII) or not.
func TestStringsText_SameAsJSONText(t *testing.T) {
	for _, list := range [][]string{nil, {}, {""}, {"t7"}, {"a", "b c", "~!#$%^*()_+={}[]|:;',.?/`"}, {`quo"te`}, {`back\slash`},
		{"<b>", "a&b", "x>y"}, {"tab\there", "new\nline", "\x00", "\x7f"}, {"café"}, {"\u2028"}, {"\xff\xfe"}, {"😀", "plain"}} {
		if got, want := stringsText(list), jsonText(list); got != want {
			t.Errorf("stringsText(%q) = %s, want %s", list, got, want)
		}
	}
	plain := []string{"deploy", "staging"}
	if n := testing.AllocsPerRun(100, func() { textSink = stringsText(plain) }); n != 1 {
		t.Errorf("plain tags: %v allocations, want 1", n)
	}
}

// textSink keeps a result on the heap, as a statement's argument is.
var textSink string
