package sqlite

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/recall-mem/recall"
)

// leanFields are the fields FindCandidates gives; the others stay zero.
var leanFields = []string{"ID", "Collection", "Type", "Title", "Content", "Tags", "Category", "Project",
	"CreatedBy", "Confidence", "Tier", "Pinned", "Status", "Metadata", "OccurredAt"}

// FindCandidates gives each memory's ranking fields exactly as
// FindMemories does (empty and full tags and metadata, pinned or not,
// other tiers and confidences), zero for every other field, under the
// same filter: only the ids asked for, only active ones by default, all
// with Status "*", none for an empty list; the same read by id and by the
// rows given beside the ids (an unknown id's row 0, a deleted memory's
// row as it was).
func TestFindCandidates_FieldsAsFindMemories(t *testing.T) {
	db := openDB(t)
	s := NewMemoryService(db)
	ctx := context.Background()
	var ids []string
	for i := range 12 {
		m := &recall.Memory{
			Key: fmt.Sprintf("k%d", i), Collection: []string{"", "notes"}[i%2], Type: []string{"", "fact", "turn"}[i%3],
			Title: fmt.Sprintf("title %d", i), Content: fmt.Sprintf("content of memory %d, \"quoted\" <&>", i),
			Category: "cat", Context: "ctx", Project: []string{"", "recall"}[i%2], Priority: "high", CreatedBy: "agent",
			Confidence: []float64{1, 0.35, 0.1234567891234}[i%3], Tier: []string{"", recall.TierWorking, recall.TierArchive}[i%3],
			Pinned: i%4 == 0, Related: []string{"x"}, Anchors: []recall.Anchor{{Path: "a.go", Hash: "00ff"}},
			OccurredAt: time.Date(2025, 3, 1+i, 10, 0, 0, 123e6, time.UTC),
		}
		reviewed, snoozed := time.Date(2025, 4, 1, 0, 0, 0, 0, time.UTC), time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
		m.ReviewedAt, m.SnoozedUntil = &reviewed, &snoozed
		if i%2 == 0 {
			m.Tags = []string{"a", "b c", "ü\"q"}
			m.Metadata = json.RawMessage(`{"speaker":"Ann","n":[1,2]}`)
		}
		r, err := s.PutMemory(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, r.Memory.ID)
	}
	asked := append([]string{"tr-none"}, ids[1:]...)
	rows := []int64{0}
	for _, id := range ids[1:] {
		rows = append(rows, memorySeq(t, db, id))
	}
	if err := s.DeleteMemory(ctx, ids[5]); err != nil {
		t.Fatal(err)
	}
	anyStatus := "*"
	for _, load := range []struct {
		status *string
		rows   []int64
	}{{nil, nil}, {&anyStatus, nil}, {nil, rows}, {&anyStatus, rows}} {
		status := load.status
		f := recall.MemoryFilter{IDs: asked, Status: status, Limit: 3, Offset: 2}
		lean, err := s.FindCandidates(ctx, f, load.rows)
		if err != nil {
			t.Fatal(err)
		}
		f.Limit, f.Offset = len(asked), 0
		whole, _, err := s.FindMemories(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		if len(lean) != len(whole) || len(whole) == 0 {
			t.Fatalf("status %v: %d candidates, FindMemories %d", status, len(lean), len(whole))
		}
		byID := map[string]*recall.Memory{}
		for _, m := range whole {
			byID[m.ID] = m
		}
		for _, l := range lean {
			w := byID[l.ID]
			if w == nil {
				t.Fatalf("status %v: candidate %s is not among FindMemories' memories", status, l.ID)
			}
			want := recall.Memory{}
			wv, lv, keep := reflect.ValueOf(w).Elem(), reflect.ValueOf(&want).Elem(), map[string]bool{}
			for _, name := range leanFields {
				keep[name] = true
				lv.FieldByName(name).Set(wv.FieldByName(name))
			}
			if !reflect.DeepEqual(*l, want) {
				t.Fatalf("status %v: candidate\n%+v\nwant the ranking fields of\n%+v", status, *l, *w)
			}
			for i := range wv.NumField() {
				if name := wv.Type().Field(i).Name; !keep[name] && wv.Field(i).IsZero() {
					t.Fatalf("the test sets every field: %s is zero", name)
				}
			}
		}
	}
	if got, err := s.FindCandidates(ctx, recall.MemoryFilter{IDs: []string{}}, nil); err != nil || len(got) != 0 {
		t.Fatalf("no ids: %d candidates, %v", len(got), err)
	}
	if _, err := s.FindCandidates(ctx, recall.MemoryFilter{}, nil); recall.ErrorCode(err) != recall.EINVALID {
		t.Fatalf("no id filter: %v, want EINVALID", err)
	}
	if _, err := s.FindCandidates(ctx, recall.MemoryFilter{IDs: ids[:2]}, rows[:1]); recall.ErrorCode(err) != recall.EINVALID {
		t.Fatalf("a row short: %v, want EINVALID", err)
	}
}

// A memory's row given beside its id is read only while it holds that
// memory: once the memory is deleted and a new one takes its rowid (SQLite
// gives the largest rowid again), the row gives nothing for the old id,
// not the new memory. Rows given out of step with the ids still give each
// asked memory its own fields.
func TestFindCandidates_RowTakenByAnotherMemory(t *testing.T) {
	db := openDB(t)
	s := NewMemoryService(db)
	ctx := context.Background()
	put := func(content string) string {
		r, err := s.PutMemory(ctx, &recall.Memory{Content: content})
		if err != nil {
			t.Fatal(err)
		}
		return r.Memory.ID
	}
	kept, gone := put("kept memory"), put("deleted memory")
	keptRow, goneRow := memorySeq(t, db, kept), memorySeq(t, db, gone)
	if err := s.DeleteMemory(ctx, gone); err != nil {
		t.Fatal(err)
	}
	taker := put("the memory that took the row")
	if memorySeq(t, db, taker) != goneRow {
		t.Fatalf("the new memory is at row %d, not the deleted one's %d: the case is not made", memorySeq(t, db, taker), goneRow)
	}
	contents := func(ms []*recall.Memory) map[string]string {
		out := map[string]string{}
		for _, m := range ms {
			out[m.ID] = m.Content
		}
		return out
	}
	for _, c := range []struct {
		ids  []string
		rows []int64
		want map[string]string
	}{
		{[]string{gone}, []int64{goneRow}, map[string]string{}},
		{[]string{gone, kept}, []int64{goneRow, keptRow}, map[string]string{kept: "kept memory"}},
		{[]string{taker}, []int64{goneRow}, map[string]string{taker: "the memory that took the row"}},
		{[]string{kept, taker}, []int64{goneRow, keptRow}, map[string]string{kept: "kept memory", taker: "the memory that took the row"}},
		{[]string{gone, taker}, []int64{0, goneRow}, map[string]string{taker: "the memory that took the row"}},
	} {
		got, err := s.FindCandidates(ctx, recall.MemoryFilter{IDs: c.ids}, c.rows)
		if err != nil {
			t.Fatal(err)
		}
		if g := contents(got); !reflect.DeepEqual(g, c.want) || len(got) != len(c.want) {
			t.Fatalf("ids %v at rows %v: %v, want %v", c.ids, c.rows, g, c.want)
		}
	}
}

// memorySeq is the memory's rowid.
func memorySeq(t *testing.T, db *DB, id string) int64 {
	t.Helper()
	var seq int64
	if err := db.read.QueryRow(`SELECT seq FROM memories WHERE id = ?`, id).Scan(&seq); err != nil {
		t.Fatal(err)
	}
	return seq
}

// The filter holds on the row path as on the id path: a memory the filter
// excludes is not a candidate, whether asked by id or at its row (the
// shown hits are reloaded under the filter, so a search would hide the
// flaw while the excluded rows skewed the fusion and shortened pages).
func TestFindCandidates_FilterOnTheRowPath(t *testing.T) {
	db := openDB(t)
	s := NewMemoryService(db)
	ctx := context.Background()
	put := func(m *recall.Memory) string {
		r, err := s.PutMemory(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		return r.Memory.ID
	}
	ops, notes := "ops", "notes"
	a := put(&recall.Memory{Content: "in ops", Collection: ops})
	b := put(&recall.Memory{Content: "in notes", Collection: notes})
	c := put(&recall.Memory{Content: "superseded in ops", Collection: ops, Status: recall.StatusSuperseded})
	ids := []string{a, b, c}
	rows := []int64{memorySeq(t, db, a), memorySeq(t, db, b), memorySeq(t, db, c)}
	anyStatus := "*"
	for _, f := range []struct {
		filter recall.MemoryFilter
		want   []string
	}{
		{recall.MemoryFilter{IDs: ids, Collection: &ops}, []string{a}},
		{recall.MemoryFilter{IDs: ids, Collection: &ops, Status: &anyStatus}, []string{a, c}},
		{recall.MemoryFilter{IDs: ids}, []string{a, b}},
	} {
		for _, rs := range [][]int64{nil, rows} {
			got, err := s.FindCandidates(ctx, f.filter, rs)
			if err != nil {
				t.Fatal(err)
			}
			var gotIDs []string
			for _, m := range got {
				gotIDs = append(gotIDs, m.ID)
			}
			slices.Sort(gotIDs)
			want := slices.Clone(f.want)
			slices.Sort(want)
			if !slices.Equal(gotIDs, want) {
				t.Errorf("rows %v, filter %+v: candidates %v, want %v", rs, f.filter, gotIDs, want)
			}
		}
	}
}
