package recall

import (
	"errors"
	"slices"
	"testing"
)

func TestBatchRows(t *testing.T) {
	run := func(rows, size int, end error) ([]int, error) {
		i := 0
		var sizes []int
		err := BatchRows(size, func() bool { i++; return i <= rows },
			func(b *CopyBatch) error { b.Meta = append(b.Meta, MetaRow{Key: "k"}); return nil },
			func() error { return end },
			func(b *CopyBatch) error { sizes = append(sizes, b.Len()); return nil })
		return sizes, err
	}
	for _, c := range []struct {
		rows, size int
		want       []int
	}{{0, 2, nil}, {4, 2, []int{2, 2}}, {5, 2, []int{2, 2, 1}}, {3, 0, []int{3}}, {DefaultCopyBatch + 1, 0, []int{DefaultCopyBatch, 1}}} {
		if got, err := run(c.rows, c.size, nil); err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%d rows by %d: batches %v, %v; want %v", c.rows, c.size, got, err, c.want)
		}
	}
	// A reader that stopped on an error: the last batch is not handed on.
	broken := errors.New("connection lost")
	if got, err := run(3, 2, broken); !errors.Is(err, broken) || !slices.Equal(got, []int{2}) {
		t.Errorf("a broken read: batches %v, %v", got, err)
	}
}

func TestCopyCodecs(t *testing.T) {
	if s, err := TallyJSON(nil); err != nil || s != "[]" {
		t.Errorf("TallyJSON(nil) = %q, %v", s, err)
	}
	src, err := SourcePairs(`[["memory","tr0000000001"],["observation","7"]]`)
	if err != nil || len(src) != 2 || src[1] != (RollupSource{Kind: SourceObservation, ID: "7"}) {
		t.Errorf("SourcePairs = %+v, %v", src, err)
	}
	if _, err := SourcePairs(`{`); err == nil {
		t.Error("SourcePairs of broken JSON: no error")
	}
	if _, err := CopyKindOf(map[CopyKind]int{CopyMemories: 1}, "tables"); ErrorCode(err) != EINVALID {
		t.Errorf("CopyKindOf of an unknown kind: %v", err)
	}
}
