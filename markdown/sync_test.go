package markdown_test

import (
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/markdown"
)

var syncNow = time.Date(2026, 1, 15, 12, 0, 0, 0, time.UTC)

func mem(id, content, tier string) *recall.Memory {
	return &recall.Memory{ID: id, Content: content, Title: content, Tier: tier, Status: recall.StatusActive}
}

func rec(id, file, text, tier string) recall.SyncRecord {
	return recall.SyncRecord{ID: id, File: file, Text: text, Tier: tier}
}

// syncSet builds a set from in-memory files.
func syncSet(files map[string]string) *markdown.Set {
	s := &markdown.Set{WorkingFile: "CLAUDE.local.md"}
	for _, p := range []string{"CLAUDE.local.md", "memory/registers/a.md", markdown.InboxFile, markdown.ArchiveFile} {
		if src, ok := files[p]; ok {
			s.Files = append(s.Files, markdown.NewFile(p, s.TierOf(p), []byte(src)))
		}
	}
	return s
}

func content(s *markdown.Set, p string) string {
	if f := s.File(p); f != nil {
		return string(f.Bytes())
	}
	return ""
}

func TestSync(t *testing.T) {
	const id = "tr0000000001"
	t.Run("NewEntryIsAdded", func(t *testing.T) {
		set := syncSet(map[string]string{"memory/registers/a.md": "- fact ^" + id + "\n"})
		res := markdown.Sync(markdown.SyncInput{Set: set, Memories: map[string]*recall.Memory{}, Now: syncNow})
		if len(res.Changes.Insert) != 1 || len(res.Added) != 1 {
			t.Fatalf("got %+v", res)
		}
		m := res.Changes.Insert[0]
		if m.ID != id || m.Content != "fact" || m.Tier != recall.TierRegister || m.ReviewedAt == nil || !m.ReviewedAt.Equal(syncNow) {
			t.Errorf("inserted %+v", m)
		}
		if len(res.Changes.Records) != 1 || res.Changes.Records[0] != rec(id, "memory/registers/a.md", "fact", recall.TierRegister) {
			t.Errorf("records %+v", res.Changes.Records)
		}
	})
	t.Run("EditedInFileIsNewVersion", func(t *testing.T) {
		set := syncSet(map[string]string{"CLAUDE.local.md": "- new text ^" + id + "\n"})
		res := markdown.Sync(markdown.SyncInput{Set: set, Now: syncNow,
			Memories: map[string]*recall.Memory{id: mem(id, "old text", recall.TierWorking)},
			Records:  map[string]recall.SyncRecord{id: rec(id, "CLAUDE.local.md", "old text", recall.TierWorking)}})
		if len(res.Edited) != 1 || len(res.Changes.Update) != 1 || *res.Changes.Update[0].Update.Content != "new text" {
			t.Fatalf("got %+v", res)
		}
		if len(res.Files) != 0 {
			t.Errorf("files written: %v", res.Files)
		}
	})
	t.Run("ChangedInStoreIsRendered", func(t *testing.T) {
		set := syncSet(map[string]string{"CLAUDE.local.md": "# W\r\n- old text ^" + id + "  \r\n"})
		res := markdown.Sync(markdown.SyncInput{Set: set, Now: syncNow,
			Memories: map[string]*recall.Memory{id: mem(id, "store\ntext", recall.TierWorking)},
			Records:  map[string]recall.SyncRecord{id: rec(id, "CLAUDE.local.md", "old text", recall.TierWorking)}})
		if got, want := content(set, "CLAUDE.local.md"), "# W\r\n- store text ^"+id+"  \r\n"; got != want {
			t.Errorf("file %q, want %q", got, want)
		}
		if len(res.Rendered) != 1 || len(res.Changes.Update) != 0 {
			t.Errorf("got %+v", res)
		}
	})
	t.Run("MovedBetweenFilesChangesTier", func(t *testing.T) {
		set := syncSet(map[string]string{"memory/registers/a.md": "- fact ^" + id + "\n"})
		res := markdown.Sync(markdown.SyncInput{Set: set, Now: syncNow,
			Memories: map[string]*recall.Memory{id: mem(id, "fact", recall.TierWorking)},
			Records:  map[string]recall.SyncRecord{id: rec(id, "CLAUDE.local.md", "fact", recall.TierWorking)}})
		if len(res.Retiered) != 1 || *res.Changes.Update[0].Update.Tier != recall.TierRegister {
			t.Fatalf("got %+v", res)
		}
	})
	t.Run("MovedIntoArchiveIsArchived", func(t *testing.T) {
		set := syncSet(map[string]string{markdown.ArchiveFile: "- fact ^" + id + "\n"})
		res := markdown.Sync(markdown.SyncInput{Set: set, Now: syncNow,
			Memories: map[string]*recall.Memory{id: mem(id, "fact", recall.TierRegister)}})
		u := res.Changes.Update[0].Update
		if *u.Tier != recall.TierArchive || *u.Status != recall.StatusArchived {
			t.Errorf("update %+v", u)
		}
	})
	t.Run("TierChangedInStoreMovesLine", func(t *testing.T) {
		set := syncSet(map[string]string{"CLAUDE.local.md": "- a ^tr0000000002\n- fact ^" + id + "\n- b ^tr0000000003\n"})
		res := markdown.Sync(markdown.SyncInput{Set: set, Now: syncNow,
			Memories: map[string]*recall.Memory{id: mem(id, "fact", recall.TierArchive),
				"tr0000000002": mem("tr0000000002", "a", recall.TierWorking), "tr0000000003": mem("tr0000000003", "b", recall.TierWorking)},
			Records: map[string]recall.SyncRecord{id: rec(id, "CLAUDE.local.md", "fact", recall.TierWorking),
				"tr0000000002": rec("tr0000000002", "CLAUDE.local.md", "a", recall.TierWorking),
				"tr0000000003": rec("tr0000000003", "CLAUDE.local.md", "b", recall.TierWorking)}})
		if got, want := content(set, "CLAUDE.local.md"), "- a ^tr0000000002\n- b ^tr0000000003\n"; got != want {
			t.Errorf("working %q, want %q", got, want)
		}
		if got := content(set, markdown.ArchiveFile); !strings.HasSuffix(got, "- fact ^"+id+"\n") {
			t.Errorf("archive %q", got)
		}
		if len(res.Moved) != 1 || res.Changes.Records[0].File != markdown.ArchiveFile {
			t.Errorf("got %+v", res)
		}
	})
	t.Run("GoneFromFilesIsArchivedNotDeleted", func(t *testing.T) {
		set := syncSet(map[string]string{"CLAUDE.local.md": "# nothing\n"})
		res := markdown.Sync(markdown.SyncInput{Set: set, Now: syncNow,
			Memories: map[string]*recall.Memory{id: mem(id, "fact", recall.TierRegister)},
			Records:  map[string]recall.SyncRecord{id: rec(id, "memory/registers/a.md", "fact", recall.TierRegister)}})
		if len(res.Missing) != 1 || len(res.Changes.Drop) != 1 {
			t.Fatalf("got %+v", res)
		}
		u := res.Changes.Update[0].Update
		if *u.Status != recall.StatusArchived || *u.Tier != recall.TierArchive {
			t.Errorf("update %+v", u)
		}
	})
	t.Run("DeletedFromStoreIsRemovedFromFile", func(t *testing.T) {
		set := syncSet(map[string]string{"CLAUDE.local.md": "# W\n- fact ^" + id + "\n"})
		res := markdown.Sync(markdown.SyncInput{Set: set, Now: syncNow, Memories: map[string]*recall.Memory{},
			Records: map[string]recall.SyncRecord{id: rec(id, "CLAUDE.local.md", "fact", recall.TierWorking)}})
		if got := content(set, "CLAUDE.local.md"); got != "# W\n" {
			t.Errorf("file %q", got)
		}
		if len(res.Removed) != 1 {
			t.Errorf("got %+v", res)
		}
	})
	t.Run("WorkingMemoryOfStoreIsAppended", func(t *testing.T) {
		set := syncSet(map[string]string{"CLAUDE.local.md": "# W"})
		m := mem(id, "from the store", recall.TierWorking)
		res := markdown.Sync(markdown.SyncInput{Set: set, Now: syncNow, Memories: map[string]*recall.Memory{id: m}})
		if got, want := content(set, "CLAUDE.local.md"), "# W\n- from the store ^"+id+"\n"; got != want {
			t.Errorf("file %q, want %q", got, want)
		}
		if len(res.Appended) != 1 {
			t.Errorf("got %+v", res)
		}
	})
	t.Run("MetadataIsImported", func(t *testing.T) {
		set := syncSet(map[string]string{"CLAUDE.local.md": "- fact ^" + id + "\n"})
		md, _ := markdown.DecodeMetadata([]byte(`{"` + id + `":{"pinned":true,"status":"superseded","last_reviewed_at":"2025-12-01T00:00:00Z","created_at":"2025-11-01T00:00:00Z"}}`))
		res := markdown.Sync(markdown.SyncInput{Set: set, Now: syncNow, Memories: map[string]*recall.Memory{}, Metadata: md})
		m := res.Changes.Insert[0]
		if !m.Pinned || m.Status != recall.StatusSuperseded || m.ReviewedAt.Day() != 1 || m.CreatedAt.Month() != time.November {
			t.Errorf("inserted %+v", m)
		}
		view := markdown.Preview(markdown.SyncInput{Memories: map[string]*recall.Memory{}}, res)
		if !view[id].Pinned {
			t.Error("preview lost the pin")
		}
	})
	t.Run("InAgreementChangesNothing", func(t *testing.T) {
		set := syncSet(map[string]string{"CLAUDE.local.md": "- fact ^" + id + "\n"})
		res := markdown.Sync(markdown.SyncInput{Set: set, Now: syncNow,
			Memories: map[string]*recall.Memory{id: mem(id, "fact", recall.TierWorking)},
			Records:  map[string]recall.SyncRecord{id: rec(id, "CLAUDE.local.md", "fact", recall.TierWorking)}})
		if res.Changed() {
			t.Errorf("got %+v", res)
		}
	})
}

// A bare CR does not end a line, so an entry can hold one; the store's
// copy must render to the same text or every sync rewrites the line
// (found by FuzzSync).
func TestSync_BareCRIsStable(t *testing.T) {
	const id = "tr0000000001"
	set := syncSet(map[string]string{"memory/registers/a.md": "- a\rb ^" + id + "\n"})
	res := markdown.Sync(markdown.SyncInput{Set: set, Now: syncNow,
		Memories: map[string]*recall.Memory{id: mem(id, "a\rb", recall.TierRegister)},
		Records:  map[string]recall.SyncRecord{id: rec(id, "memory/registers/a.md", "a\rb", recall.TierRegister)}})
	if res.Changed() || len(res.Rendered) != 0 {
		t.Fatalf("sync changed %+v", res)
	}
}
