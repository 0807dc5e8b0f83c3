package sqlite_test

import (
	"context"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/sqlite"
)

// TestMemoryTags_InStep: the tag filter (served by memory_tags) follows
// every change to a memory's tags: a put, a replacing and a merging
// update, a repeated tag and a delete.
func TestMemoryTags_InStep(t *testing.T) {
	ctx := context.Background()
	s := sqlite.NewMemoryService(MustOpenDB(t))
	tagged := func(tag string) []string {
		t.Helper()
		ms, _, err := s.FindMemories(ctx, recall.MemoryFilter{Fields: map[string][]string{"tags": {tag}}})
		if err != nil {
			t.Fatal(err)
		}
		var keys []string
		for _, m := range ms {
			keys = append(keys, m.Key)
		}
		return keys
	}
	want := func(tag string, keys ...string) {
		t.Helper()
		got := tagged(tag)
		if strings.Join(got, ",") != strings.Join(keys, ",") {
			t.Errorf("tag %q: got %v, want %v", tag, got, keys)
		}
	}
	if _, err := s.PutMemory(ctx, &recall.Memory{Key: "a", Content: "one", Tags: []string{"red", "red", "blue"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutMemory(ctx, &recall.Memory{Key: "b", Content: "two", Tags: []string{"blue"}}); err != nil {
		t.Fatal(err)
	}
	want("red", "a")
	want("green")
	if got := tagged("blue"); len(got) != 2 {
		t.Errorf("tag blue: got %v, want a and b", got)
	}
	green := []string{"green"}
	if _, err := s.UpdateMemory(ctx, "a", recall.MemoryUpdate{Tags: &green}); err != nil {
		t.Fatal(err)
	}
	want("red")
	want("green", "a")
	want("blue", "b")
	if _, err := s.UpdateMemory(ctx, "a", recall.MemoryUpdate{Tags: &[]string{"blue"}, MergeTags: true}); err != nil {
		t.Fatal(err)
	}
	want("green", "a")
	if got := tagged("blue"); len(got) != 2 {
		t.Errorf("tag blue after merge: got %v, want a and b", got)
	}
	if err := s.DeleteMemory(ctx, "b"); err != nil {
		t.Fatal(err)
	}
	want("blue", "a")
	if _, err := s.PutMemory(ctx, &recall.Memory{Key: "a", Content: "one, again", Tags: []string{"red"}}); err != nil {
		t.Fatal(err)
	}
	want("red", "a")
	want("blue")
}
