package sqlite

import (
	"context"
	"reflect"
	"testing"

	"github.com/recall-mem/recall"
)

// A copied store shares the live row with each current version as the
// source does (migration 0020), instead of keeping a second full snapshot
// of every memory, and reads back the same history.
func TestCopy_SharesLiveRows(t *testing.T) {
	ctx := context.Background()
	src, dst := openTemp(t, nil), openTemp(t, nil)
	historyStore(t, src)
	for _, kind := range []recall.CopyKind{recall.CopyMemories, recall.CopyVersions} {
		err := Copier{src}.DumpRows(ctx, kind, 3, func(b *recall.CopyBatch) error { return Copier{dst}.LoadRows(ctx, b) })
		if err != nil {
			t.Fatal(err)
		}
	}
	want := sharedSnapshots(t, src.read)
	if want == 0 {
		t.Fatal("the source shares no row: the test proves nothing")
	}
	if got := sharedSnapshots(t, dst.read); got != want {
		t.Errorf("the copy shares %d live rows, the source %d", got, want)
	}
	rows, err := src.read.QueryContext(ctx, `SELECT DISTINCT memory_id FROM memory_versions`)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	from, to := NewMemoryService(src), NewMemoryService(dst)
	for _, id := range ids {
		w, err1 := from.MemoryVersions(ctx, id)
		g, err2 := to.MemoryVersions(ctx, id)
		if err1 != nil || err2 != nil {
			t.Fatalf("versions of %s: %v, %v", id, err1, err2)
		}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("versions of %s in the copy differ:\n got %+v\nwant %+v", id, g, w)
		}
	}
}
