// Package recalltest holds contract tests that every implementation of the
// root package's service interfaces must pass: the SQLite store in-process
// and the HTTP client over the REST API run the same suite, so a transport
// cannot drift from the store's behaviour.
package recalltest

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
)

// TestMemoryService runs the MemoryService contract. open must return a
// service over a fresh, empty store with the default content limit (1 MiB)
// each time it is called.
func TestMemoryService(t *testing.T, open func(t *testing.T) recall.MemoryService) {
	t.Run("Put", func(t *testing.T) { testPut(t, open) })
	t.Run("Find", func(t *testing.T) { testFind(t, open) })
	t.Run("FindMemories", func(t *testing.T) { testFindMemories(t, open) })
	t.Run("Update", func(t *testing.T) { testUpdate(t, open) })
	t.Run("DeleteRestore", func(t *testing.T) { testDeleteRestore(t, open) })
	t.Run("Import", func(t *testing.T) { testImport(t, open) })
	t.Run("HistoryKept", func(t *testing.T) { testHistoryKept(t, open) })
}

// wantCode fails the test unless err carries code.
func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if got := recall.ErrorCode(err); got != code {
		t.Fatalf("error code = %q (%v), want %q", got, err, code)
	}
	if recall.ErrorMessage(err) == "" {
		t.Fatal("error without a message")
	}
}

func mustPut(t *testing.T, s recall.MemoryService, m *recall.Memory) *recall.Memory {
	t.Helper()
	res, err := s.PutMemory(context.Background(), m)
	if err != nil {
		t.Fatalf("put %+v: %v", m, err)
	}
	return res.Memory
}

func testPut(t *testing.T, open func(t *testing.T) recall.MemoryService) {
	ctx := context.Background()
	t.Run("OK", func(t *testing.T) {
		s := open(t)
		res, err := s.PutMemory(ctx, &recall.Memory{Title: "GPU patterns", Key: "gpu", Content: "Use Metal.",
			Tags: []string{"gpu", "perf"}, Type: "fact", Metadata: json.RawMessage(`{"source":"web"}`)})
		if err != nil {
			t.Fatal(err)
		}
		m := res.Memory
		if !res.Created || !recall.IsID(m.ID) || m.Version != 1 || m.Collection != recall.DefaultCollection {
			t.Fatalf("got %+v created=%v", m, res.Created)
		}
		if m.Tier != recall.TierRegister || m.Status != recall.StatusActive || m.Confidence != 1 || m.CreatedAt.IsZero() || m.OccurredAt.IsZero() {
			t.Fatalf("defaults not filled: %+v", m)
		}
		got, err := s.FindMemory(ctx, m.ID, "")
		if err != nil {
			t.Fatal(err)
		}
		if got.Title != "GPU patterns" || got.Content != "Use Metal." || !slices.Equal(got.Tags, []string{"gpu", "perf"}) || got.Type != "fact" {
			t.Fatalf("round trip: %+v", got)
		}
		var meta map[string]string
		if err := json.Unmarshal(got.Metadata, &meta); err != nil || meta["source"] != "web" {
			t.Fatalf("metadata %s: %v", got.Metadata, err)
		}
	})
	t.Run("SameKeyNewVersion", func(t *testing.T) {
		s := open(t)
		a := mustPut(t, s, &recall.Memory{Key: "k", Content: "one"})
		res, err := s.PutMemory(ctx, &recall.Memory{Key: "k", Content: "two"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Created || res.Memory.ID != a.ID || res.Memory.Version != 2 || res.Memory.Content != "two" {
			t.Fatalf("got %+v created=%v", res.Memory, res.Created)
		}
		_, total, err := s.FindMemories(ctx, recall.MemoryFilter{})
		if err != nil || total != 1 {
			t.Fatalf("total %d err %v: a key put twice must stay one memory", total, err)
		}
	})
	t.Run("SameKeyOtherCollection", func(t *testing.T) {
		s := open(t)
		a := mustPut(t, s, &recall.Memory{Key: "k", Content: "one"})
		b := mustPut(t, s, &recall.Memory{Key: "k", Collection: "other", Content: "two"})
		if a.ID == b.ID {
			t.Fatal("the same key in two collections must be two memories")
		}
	})
	for name, m := range map[string]*recall.Memory{
		"ErrInvalidKey":        {Key: "../etc", Content: "x"},
		"ErrInvalidCollection": {Collection: "Bad Name", Content: "x"},
		"ErrInvalidID":         {ID: "nope", Content: "x"},
		"ErrInvalidTier":       {Tier: "attic", Content: "x"},
		"ErrInvalidConfidence": {Confidence: 2, Content: "x"},
		"ErrEmpty":             {Content: "  "},
	} {
		t.Run(name, func(t *testing.T) {
			s := open(t)
			_, err := s.PutMemory(ctx, m)
			wantCode(t, err, recall.EINVALID)
			if _, total, _ := s.FindMemories(ctx, recall.MemoryFilter{Status: ptr("*")}); total != 0 {
				t.Fatalf("a rejected put wrote %d memories", total)
			}
		})
	}
	t.Run("ErrTooLarge", func(t *testing.T) {
		s := open(t)
		_, err := s.PutMemory(ctx, &recall.Memory{Content: strings.Repeat("x", 1<<20+1)})
		wantCode(t, err, recall.ETOOLARGE)
	})
	t.Run("ErrPinnedTitleTaken", func(t *testing.T) {
		s := open(t)
		mustPut(t, s, &recall.Memory{Title: "Core rule", Content: "a", Pinned: true})
		_, err := s.PutMemory(ctx, &recall.Memory{Title: "core rule", Content: "b", Pinned: true})
		wantCode(t, err, recall.ECONFLICT)
	})
}

func testFind(t *testing.T, open func(t *testing.T) recall.MemoryService) {
	ctx := context.Background()
	s := open(t)
	a := mustPut(t, s, &recall.Memory{Key: "shared", Content: "in default"})
	b := mustPut(t, s, &recall.Memory{Key: "shared", Collection: "work", Content: "in work"})
	c := mustPut(t, s, &recall.Memory{Key: "solo", Collection: "work", Content: "only here"})
	t.Run("ByID", func(t *testing.T) {
		got, err := s.FindMemory(ctx, b.ID, "")
		if err != nil || got.Content != "in work" {
			t.Fatalf("got %+v, %v", got, err)
		}
	})
	t.Run("ByKey", func(t *testing.T) {
		got, err := s.FindMemory(ctx, "solo", "")
		if err != nil || got.ID != c.ID {
			t.Fatalf("got %+v, %v", got, err)
		}
	})
	t.Run("ByKeyInCollection", func(t *testing.T) {
		got, err := s.FindMemory(ctx, "shared", recall.DefaultCollection)
		if err != nil || got.ID != a.ID {
			t.Fatalf("got %+v, %v", got, err)
		}
	})
	t.Run("ErrAmbiguousKey", func(t *testing.T) {
		_, err := s.FindMemory(ctx, "shared", "")
		wantCode(t, err, recall.ECONFLICT)
	})
	t.Run("ErrNotFoundID", func(t *testing.T) {
		_, err := s.FindMemory(ctx, "tr0000000000", "")
		wantCode(t, err, recall.ENOTFOUND)
	})
	t.Run("ErrNotFoundKey", func(t *testing.T) {
		_, err := s.FindMemory(ctx, "missing", "")
		wantCode(t, err, recall.ENOTFOUND)
	})
	t.Run("ErrWrongCollection", func(t *testing.T) {
		_, err := s.FindMemory(ctx, c.ID, recall.DefaultCollection)
		wantCode(t, err, recall.ENOTFOUND)
	})
	t.Run("ErrInvalidRef", func(t *testing.T) {
		_, err := s.FindMemory(ctx, "Not A Key!", "")
		wantCode(t, err, recall.EINVALID)
	})
}

func ptr[T any](v T) *T { return &v }

func ids(ms []*recall.Memory) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.ID)
	}
	slices.Sort(out)
	return out
}

func sorted(s ...string) []string { slices.Sort(s); return s }

func testFindMemories(t *testing.T, open func(t *testing.T) recall.MemoryService) {
	ctx := context.Background()
	s := open(t)
	api := mustPut(t, s, &recall.Memory{Key: "api", Content: "API keys rotate", Type: "fact", Tags: []string{"api", "auth"}, Project: "web",
		Metadata: json.RawMessage(`{"source":"web","n":3}`)})
	db := mustPut(t, s, &recall.Memory{Key: "db", Collection: "ops", Content: "Postgres 16", Type: "decision", Tags: []string{"db"}, Tier: recall.TierWorking, Pinned: true, Title: "DB"})
	old := mustPut(t, s, &recall.Memory{Key: "old", Content: "Was MySQL", Type: "decision", Status: recall.StatusSuperseded,
		Metadata: json.RawMessage(`{"source":"chat"}`)})
	cases := []struct {
		name   string
		filter recall.MemoryFilter
		want   []string
	}{
		{"ActiveByDefault", recall.MemoryFilter{}, sorted(api.ID, db.ID)},
		{"AnyStatus", recall.MemoryFilter{Status: ptr("*")}, sorted(api.ID, db.ID, old.ID)},
		{"Status", recall.MemoryFilter{Status: ptr(recall.StatusSuperseded)}, []string{old.ID}},
		{"Collection", recall.MemoryFilter{Collection: ptr("ops")}, []string{db.ID}},
		{"Key", recall.MemoryFilter{Key: ptr("api")}, []string{api.ID}},
		{"ID", recall.MemoryFilter{ID: ptr(db.ID)}, []string{db.ID}},
		{"Type", recall.MemoryFilter{Type: ptr("decision"), Status: ptr("*")}, sorted(db.ID, old.ID)},
		{"Tier", recall.MemoryFilter{Tier: ptr(recall.TierWorking)}, []string{db.ID}},
		{"Pinned", recall.MemoryFilter{Pinned: ptr(true)}, []string{db.ID}},
		{"NotPinned", recall.MemoryFilter{Pinned: ptr(false)}, []string{api.ID}},
		{"Project", recall.MemoryFilter{Project: ptr("web")}, []string{api.ID}},
		{"TagsAny", recall.MemoryFilter{Fields: map[string][]string{"tags": {"auth", "db"}}}, sorted(api.ID, db.ID)},
		{"TagsAndType", recall.MemoryFilter{Fields: map[string][]string{"tags": {"auth", "db"}, "type": {"fact"}}}, []string{api.ID}},
		{"Metadata", recall.MemoryFilter{Status: ptr("*"), Fields: map[string][]string{"metadata.source": {"chat"}}}, []string{old.ID}},
		{"MetadataNumber", recall.MemoryFilter{Fields: map[string][]string{"metadata.n": {"3"}}}, []string{api.ID}},
		{"ValueWithComma", recall.MemoryFilter{Fields: map[string][]string{"metadata.source": {"web,chat"}}}, nil},
		{"NoMatch", recall.MemoryFilter{Collection: ptr("nothing")}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, total, err := s.FindMemories(ctx, c.filter)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(ids(got), c.want) || total != len(c.want) {
				t.Fatalf("got %v (total %d), want %v", ids(got), total, c.want)
			}
		})
	}
	t.Run("NewestChangeFirst", func(t *testing.T) {
		got, _, err := s.FindMemories(ctx, recall.MemoryFilter{Status: ptr("*")})
		if err != nil || len(got) != 3 || got[0].ID != old.ID || got[2].ID != api.ID {
			t.Fatalf("order %v, %v", got, err)
		}
	})
	t.Run("Newest", func(t *testing.T) {
		at := func(id string, when time.Time) {
			if _, err := s.UpdateMemory(ctx, id, recall.MemoryUpdate{OccurredAt: &when}); err != nil {
				t.Fatal(err)
			}
		}
		base := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
		at(api.ID, base.Add(48*time.Hour))
		at(db.ID, base)
		at(old.ID, base.Add(24*time.Hour))
		got, _, err := s.FindMemories(ctx, recall.MemoryFilter{Status: ptr("*"), Newest: true})
		if err != nil || len(got) != 3 || got[0].ID != api.ID || got[1].ID != old.ID || got[2].ID != db.ID {
			t.Fatalf("order %v, %v", got, err)
		}
	})
	t.Run("IDs", func(t *testing.T) {
		got, total, err := s.FindMemories(ctx, recall.MemoryFilter{Status: ptr("*"), IDs: []string{db.ID, old.ID}})
		if err != nil || !slices.Equal(ids(got), sorted(db.ID, old.ID)) || total != 2 {
			t.Fatalf("got %v total %d err %v", ids(got), total, err)
		}
		got, total, err = s.FindMemories(ctx, recall.MemoryFilter{Status: ptr("*"), IDs: []string{}})
		if err != nil || len(got) != 0 || total != 0 {
			t.Fatalf("empty ids: got %v total %d err %v", ids(got), total, err)
		}
	})
	t.Run("LimitOffset", func(t *testing.T) {
		got, total, err := s.FindMemories(ctx, recall.MemoryFilter{Status: ptr("*"), Limit: 1, Offset: 1})
		if err != nil || len(got) != 1 || total != 3 || got[0].ID != db.ID {
			t.Fatalf("got %v total %d err %v", ids(got), total, err)
		}
	})
	t.Run("ErrUnknownField", func(t *testing.T) {
		_, _, err := s.FindMemories(ctx, recall.MemoryFilter{Fields: map[string][]string{"colour": {"red"}}})
		wantCode(t, err, recall.EINVALID)
	})
}

func testUpdate(t *testing.T, open func(t *testing.T) recall.MemoryService) {
	ctx := context.Background()
	t.Run("Fields", func(t *testing.T) {
		s := open(t)
		m := mustPut(t, s, &recall.Memory{Key: "k", Content: "one", Tags: []string{"a"}, Title: "T"})
		got, err := s.UpdateMemory(ctx, m.ID, recall.MemoryUpdate{Content: ptr("two"), Title: ptr(""), Tier: ptr(recall.TierWorking), Pinned: ptr(true)})
		if err != nil {
			t.Fatal(err)
		}
		if got.Content != "two" || got.Title != "" || got.Tier != recall.TierWorking || !got.Pinned || got.Version != 2 || !slices.Equal(got.Tags, []string{"a"}) {
			t.Fatalf("got %+v", got)
		}
		again, _ := s.FindMemory(ctx, "k", "")
		if again.Version != 2 || again.Content != "two" {
			t.Fatalf("not stored: %+v", again)
		}
	})
	t.Run("NothingChangedKeepsVersion", func(t *testing.T) {
		s := open(t)
		m := mustPut(t, s, &recall.Memory{Key: "k", Content: "one", Tags: []string{"a"}})
		for _, upd := range []recall.MemoryUpdate{{}, {Content: ptr("one"), Tags: &[]string{"a"}}} {
			got, err := s.UpdateMemory(ctx, m.ID, upd)
			if err != nil || got.Version != 1 {
				t.Fatalf("an update that changes nothing: version %v, err %v; want version 1 kept", got, err)
			}
		}
	})
	t.Run("ReplaceAndMergeTags", func(t *testing.T) {
		s := open(t)
		m := mustPut(t, s, &recall.Memory{Content: "x", Tags: []string{"a", "b"}})
		got, err := s.UpdateMemory(ctx, m.ID, recall.MemoryUpdate{Tags: &[]string{"b", "c"}, MergeTags: true})
		if err != nil || !slices.Equal(got.Tags, []string{"a", "b", "c"}) {
			t.Fatalf("merge: %v %v", got.Tags, err)
		}
		got, err = s.UpdateMemory(ctx, m.ID, recall.MemoryUpdate{Tags: &[]string{"z"}})
		if err != nil || !slices.Equal(got.Tags, []string{"z"}) {
			t.Fatalf("replace: %v %v", got.Tags, err)
		}
		got, err = s.UpdateMemory(ctx, m.ID, recall.MemoryUpdate{Tags: &[]string{}})
		if err != nil || len(got.Tags) != 0 {
			t.Fatalf("clear: %v %v", got.Tags, err)
		}
	})
	t.Run("MergeMetadata", func(t *testing.T) {
		s := open(t)
		m := mustPut(t, s, &recall.Memory{Content: "x", Metadata: json.RawMessage(`{"a":1,"b":2}`)})
		patch := json.RawMessage(`{"b":null,"c":"three"}`)
		got, err := s.UpdateMemory(ctx, m.ID, recall.MemoryUpdate{Metadata: &patch})
		if err != nil {
			t.Fatal(err)
		}
		var meta map[string]any
		if err := json.Unmarshal(got.Metadata, &meta); err != nil {
			t.Fatal(err)
		}
		if len(meta) != 2 || meta["a"] != float64(1) || meta["c"] != "three" {
			t.Fatalf("metadata %s", got.Metadata)
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		s := open(t)
		_, err := s.UpdateMemory(ctx, "tr0000000000", recall.MemoryUpdate{Title: ptr("x")})
		wantCode(t, err, recall.ENOTFOUND)
	})
	t.Run("ErrKeyTaken", func(t *testing.T) {
		s := open(t)
		mustPut(t, s, &recall.Memory{Key: "a", Content: "one"})
		b := mustPut(t, s, &recall.Memory{Key: "b", Content: "two"})
		_, err := s.UpdateMemory(ctx, b.ID, recall.MemoryUpdate{Key: ptr("a")})
		wantCode(t, err, recall.ECONFLICT)
		if got, _ := s.FindMemory(ctx, b.ID, ""); got.Key != "b" || got.Version != 1 {
			t.Fatalf("a rejected update changed the memory: %+v", got)
		}
	})
	t.Run("ErrInvalid", func(t *testing.T) {
		s := open(t)
		m := mustPut(t, s, &recall.Memory{Content: "x"})
		for _, upd := range []recall.MemoryUpdate{
			{Status: ptr("gone")},
			{Tier: ptr("attic")},
			{Confidence: ptr(-1.0)},
			{Metadata: ptr(json.RawMessage(`[1,2]`))},
			{Key: ptr("Bad Key")},
		} {
			_, err := s.UpdateMemory(ctx, m.ID, upd)
			wantCode(t, err, recall.EINVALID)
		}
		if got, _ := s.FindMemory(ctx, m.ID, ""); got.Version != 1 {
			t.Fatalf("rejected updates wrote versions: %d", got.Version)
		}
	})
}

func testDeleteRestore(t *testing.T, open func(t *testing.T) recall.MemoryService) {
	ctx := context.Background()
	s := open(t)
	m := mustPut(t, s, &recall.Memory{Key: "k", Content: "one"})
	if _, err := s.UpdateMemory(ctx, m.ID, recall.MemoryUpdate{Content: ptr("two")}); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteMemory(ctx, m.ID); err != nil {
		t.Fatal(err)
	}
	t.Run("Gone", func(t *testing.T) {
		_, err := s.FindMemory(ctx, m.ID, "")
		wantCode(t, err, recall.ENOTFOUND)
		wantCode(t, s.DeleteMemory(ctx, m.ID), recall.ENOTFOUND)
	})
	t.Run("VersionsKept", func(t *testing.T) {
		vs, err := s.MemoryVersions(ctx, m.ID)
		if err != nil {
			t.Fatal(err)
		}
		var ops []string
		for _, v := range vs {
			ops = append(ops, v.Op)
			if v.MemoryID != m.ID || v.Memory == nil || v.ChangedAt.IsZero() {
				t.Fatalf("version %+v", v)
			}
		}
		if !slices.Equal(ops, []string{"put", "update", "delete"}) || vs[0].Memory.Content != "one" || vs[1].Version != 2 {
			t.Fatalf("ops %v", ops)
		}
	})
	t.Run("Restore", func(t *testing.T) {
		got, err := s.RestoreMemory(ctx, m.ID, 1)
		if err != nil {
			t.Fatal(err)
		}
		if got.ID != m.ID || got.Content != "one" || got.Version != 4 {
			t.Fatalf("restored %+v", got)
		}
		if again, err := s.FindMemory(ctx, "k", ""); err != nil || again.Content != "one" {
			t.Fatalf("after restore %+v %v", again, err)
		}
	})
	t.Run("ErrRestoreDeletion", func(t *testing.T) {
		_, err := s.RestoreMemory(ctx, m.ID, 3)
		wantCode(t, err, recall.EINVALID)
	})
	t.Run("ErrNoVersion", func(t *testing.T) {
		_, err := s.RestoreMemory(ctx, m.ID, 99)
		wantCode(t, err, recall.ENOTFOUND)
	})
	t.Run("ErrNoHistory", func(t *testing.T) {
		_, err := s.MemoryVersions(ctx, "tr0000000000")
		wantCode(t, err, recall.ENOTFOUND)
		_, err = s.RestoreMemory(ctx, "tr0000000000", 1)
		wantCode(t, err, recall.ENOTFOUND)
	})
}

func testImport(t *testing.T, open func(t *testing.T) recall.MemoryService) {
	ctx := context.Background()
	t.Run("OK", func(t *testing.T) {
		s := open(t)
		existing := mustPut(t, s, &recall.Memory{Key: "e", Content: "old"})
		res, err := s.ImportMemories(ctx, []*recall.Memory{
			{ID: "tr00000000aa", Key: "new", Content: "fresh"},
			{ID: existing.ID, Key: "e", Content: "replaced"},
		})
		if err != nil {
			t.Fatal(err)
		}
		if res.Added != 1 || res.Updated != 1 {
			t.Fatalf("result %+v", res)
		}
		if got, err := s.FindMemory(ctx, "tr00000000aa", ""); err != nil || got.Content != "fresh" {
			t.Fatalf("imported id not kept: %+v %v", got, err)
		}
		if got, _ := s.FindMemory(ctx, existing.ID, ""); got.Content != "replaced" || got.Version != 2 {
			t.Fatalf("existing %+v", got)
		}
	})
	t.Run("ErrInvalidWritesNothing", func(t *testing.T) {
		s := open(t)
		_, err := s.ImportMemories(ctx, []*recall.Memory{
			{ID: "tr00000000aa", Content: "fine"},
			{ID: "tr00000000bb", Key: "Bad Key", Content: "bad"},
		})
		wantCode(t, err, recall.EINVALID)
		if _, total, _ := s.FindMemories(ctx, recall.MemoryFilter{Status: ptr("*")}); total != 0 {
			t.Fatalf("a failed import wrote %d memories", total)
		}
	})
	t.Run("ErrConflictWritesNothing", func(t *testing.T) {
		s := open(t)
		_, err := s.ImportMemories(ctx, []*recall.Memory{
			{ID: "tr00000000aa", Key: "same", Content: "one"},
			{ID: "tr00000000bb", Key: "same", Content: "two"},
		})
		wantCode(t, err, recall.ECONFLICT)
		if _, total, _ := s.FindMemories(ctx, recall.MemoryFilter{Status: ptr("*")}); total != 0 {
			t.Fatalf("a failed import wrote %d memories", total)
		}
	})
}
