package sqlite

import (
	"context"
	"reflect"
	"testing"
)

// TestTagMemory_SameAsJSONEach: the tags a new memory lists in
// memory_tags are those json_each reads from its tags column, whichever
// way tagMemory writes them; plain tags take one insert each and no
// json_each.
func TestTagMemory_SameAsJSONEach(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t, nil)
	lists := [][]string{nil, {}, {"a"}, {"a", "b", "a"}, {"<b>&amp;", "é", "日本", "🙂", "q\"uote", `back\slash`, "u+2028 \u2028"},
		{"tab\there"}, {"nul\x00byte"}, {"bad\xffutf8"}, {"fffd \ufffd"}, {"del\x7f"}, {"ok", "line\nbreak"}, {""}}
	for i, tags := range lists {
		seq := int64(2*i + 1)
		var direct, viaJSON [][2]any
		err := db.update(ctx, func(tx *Tx) error {
			if err := tagMemory(ctx, tx, seq, tags, jsonText(tags)); err != nil {
				return err
			}
			_, err := tx.exec(ctx, tagMemorySQL, seq+1, jsonText(tags))
			return err
		})
		if err != nil {
			t.Fatalf("%q: %v", tags, err)
		}
		for s, dst := range map[int64]*[][2]any{seq: &direct, seq + 1: &viaJSON} {
			rows, err := db.read.Query(`SELECT tag, typeof(tag) FROM memory_tags WHERE seq = ? ORDER BY tag`, s)
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				var tag, typ string
				if err := rows.Scan(&tag, &typ); err != nil {
					t.Fatal(err)
				}
				*dst = append(*dst, [2]any{tag, typ})
			}
			rows.Close()
		}
		if !reflect.DeepEqual(direct, viaJSON) {
			t.Errorf("%q: tagMemory listed %q, json_each %q", tags, direct, viaJSON)
		}
	}
}

// TestTagMemory_PlainTagsSkipJSON: an import of plainly tagged memories
// never runs the json_each statement, and untagged ones run no tag
// statement at all.
func TestTagMemory_PlainTagsSkipJSON(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t, nil)
	err := db.update(ctx, func(tx *Tx) error {
		if err := tagMemory(ctx, tx, 1, []string{"a", "b"}, `["a","b"]`); err != nil {
			return err
		}
		if err := tagMemory(ctx, tx, 2, nil, `[]`); err != nil {
			return err
		}
		if tx.prepared(tagMemorySQL) {
			t.Error("plain tags went through json_each")
		}
		if err := tagMemory(ctx, tx, 3, []string{"x\x00y"}, jsonText([]string{"x\x00y"})); err != nil {
			return err
		}
		if !tx.prepared(tagMemorySQL) {
			t.Error("a tag with a control character did not go through json_each")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// prepared reports whether query has been prepared for tx, on the
// driver's connection (execRaw) or through database/sql.
func (tx *Tx) prepared(query string) bool {
	if _, ok := tx.stmts[query]; ok {
		return true
	}
	_, ok := tx.raw[query]
	return ok
}
