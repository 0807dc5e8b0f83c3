package markdown_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/markdown"
)

// FuzzLoadSync writes any working file and register to disk, loads them
// whole, tags untagged entries, syncs with an empty store, writes the
// files, loads them again and syncs with the store the first sync left:
// loading never fails on content, entries keep their lines, and the
// second sync changes nothing. (FuzzSync in cmd/recall runs the same
// through the CLI and a real store; this one is fast.)
func FuzzLoadSync(f *testing.F) {
	for _, s := range [][2]string{
		{"# Working\n- Dave prefers tabs ^tr0000000001\n- untagged fact\n", "# People\n- Eve runs CI ^tr0000000003\n"},
		{"```\n- fenced ^tr0000000002\n```\n- x\r\n", "---\ntitle: x\n---\n- y\n"},
		{"- a\rb\n- ^tr0000000004\n- c ^tr0000000005", "- multi\n  continued ^tr0000000006\n"},
		{"", ""},
	} {
		f.Add([]byte(s[0]), []byte(s[1]))
	}
	f.Fuzz(func(t *testing.T, working, register []byte) {
		root := t.TempDir()
		if err := os.MkdirAll(filepath.Join(root, "memory", "registers"), 0o755); err != nil {
			t.Fatal(err)
		}
		for p, b := range map[string][]byte{"CLAUDE.local.md": working, "memory/registers/fuzz.md": register} {
			if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(p)), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		set, err := markdown.Load(root, "")
		if err != nil {
			t.Fatalf("load: %v", err)
		}
		if ids, _ := set.Duplicates(); len(ids) > 0 {
			return // sync refuses duplicate ids
		}
		for i, loc := range set.Untagged() {
			set.File(loc.File).Tag(loc.Line, fmt.Sprintf("trf%09x", i))
		}
		for _, e := range set.Entries() {
			line := set.File(e.File).Lines[e.Line-1]
			if items := markdown.ParseItems([]byte(line)); len(items) != 1 || items[0].ID != e.ID || items[0].Text != e.Text {
				t.Fatalf("entry %+v is not line %d %q", e, e.Line, line)
			}
		}
		res := markdown.Sync(markdown.SyncInput{Set: set, Memories: map[string]*recall.Memory{}, Now: syncNow})
		if _, err := set.Write(); err != nil {
			t.Fatalf("write: %v", err)
		}
		mems, records := map[string]*recall.Memory{}, map[string]recall.SyncRecord{}
		for _, m := range res.Changes.Insert {
			mems[m.ID] = m
		}
		for _, r := range res.Changes.Records {
			records[r.ID] = r
		}
		again, err := markdown.Load(root, "")
		if err != nil {
			t.Fatalf("reload: %v", err)
		}
		res = markdown.Sync(markdown.SyncInput{Set: again, Memories: mems, Records: records, Now: syncNow})
		if res.Changed() {
			t.Fatalf("second sync of %q and %q changes %+v (%+v)", working, register, res, res.Changes)
		}
	})
}
