package engine_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
)

// TestEngine_ImportLines: an export streams back in whole, and a bad line
// at the end of a file of several thousand memories, read after earlier
// batches were written, leaves the store unchanged and is named by number.
func TestEngine_ImportLines(t *testing.T) {
	ctx := context.Background()
	e := openEngine(t)
	if _, err := e.Put(ctx, &recall.Memory{Content: "already here"}); err != nil {
		t.Fatal(err)
	}
	const n = 3000
	var file bytes.Buffer
	for i := range n {
		fmt.Fprintf(&file, "{\"id\":\"tr%010d\",\"content\":\"memory %d of the file\"}\n\n", i, i)
	}
	good := file.Len()
	file.WriteString(`{"id":"tr9999999999","content":"fine","colour":"unknown field"}` + "\n")

	_, err := e.ImportLines(ctx, bytes.NewReader(file.Bytes()))
	want := fmt.Sprintf("Line %d is not a memory object", 2*n+1)
	if recall.ErrorCode(err) != recall.EINVALID || !strings.HasPrefix(recall.ErrorMessage(err), want) {
		t.Fatalf("got %v, want EINVALID starting %q", err, want)
	}
	if _, total, err := e.List(ctx, recall.MemoryFilter{}); err != nil || total != 1 {
		t.Fatalf("store holds %d memories (%v) after a failed import, want 1", total, err)
	}

	res, err := e.ImportLines(ctx, bytes.NewReader(file.Bytes()[:good]))
	if err != nil || res.Added != n || res.Updated != 0 {
		t.Fatalf("ImportLines = %+v, %v; want %d added", res, err, n)
	}
	var out bytes.Buffer
	if err := e.Export(ctx, recall.MemoryFilter{}, &out); err != nil {
		t.Fatal(err)
	}
	other := openEngine(t)
	if res, err := other.ImportLines(ctx, &out); err != nil || res.Added != n+1 {
		t.Fatalf("reimport of the export = %+v, %v; want %d added", res, err, n+1)
	}
}

// TestMemoryLines_StopsAtFirstError: the stream yields each line's memory
// until a line fails, then that error once and nothing after it, as
// DecodeMemoryLines reports it.
func TestMemoryLines_StopsAtFirstError(t *testing.T) {
	in := "{\"content\":\"a\"}\n{\"content\":\"b\"} x\n{\"content\":\"c\"}\n"
	var got []string
	var errs []error
	for m, err := range engine.MemoryLines(strings.NewReader(in)) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		got = append(got, m.Content)
	}
	_, whole := engine.DecodeMemoryLines([]byte(in))
	if len(got) != 1 || got[0] != "a" || len(errs) != 1 || errs[0].Error() != whole.Error() {
		t.Fatalf("got %v then %v; want [a] then %v", got, errs, whole)
	}
}
