package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/sqlite"
	"github.com/recall-mem/recall/sqlite/sqlitetest"
	"github.com/spf13/cobra"
)

// FuzzBuildMemory feeds any document to `recall put`'s input parser
// (frontmatter, title from the first H1, key from the title) and stores
// what it builds in a real store: the parser refuses with EINVALID or the
// memory is stored, unless the store refuses it as invalid, too large or
// a second pin of a title; metadata is a JSON object; a derived key is a valid key; what is stored exports as
// JSON and reads back.
func FuzzBuildMemory(f *testing.F) {
	for _, s := range []string{"# Title\nbody", "---\ntitle: T\ntags: [a, b]\nconfidence: 0.5\npinned: true\n---\ntext",
		"---\nconfidence: .nan\n---\nx", "---\nmetadata: 5\n---\nx", "---\nmetadata: {1: 2}\n---\nx", "---\noccurred_at: yesterday\n---\nx",
		"# Ünïcödé: ✓ & más\n", "#   \n", "# " + strings.Repeat("long ", 50), "---\nkey: Bad Key\n---\nx", "---\ntier: nope\n---\nx", ""} {
		f.Add([]byte(s))
	}
	ctx := context.Background()
	svc := sqlite.NewMemoryService(sqlitetest.MustOpenDB(f))
	f.Fuzz(func(t *testing.T, doc []byte) {
		var flags memoryFlags
		c := &cobra.Command{}
		flags.register(c)
		m, err := buildMemory(doc, &flags, c)
		if err != nil {
			if recall.ErrorCode(err) != recall.EINVALID {
				t.Fatalf("%q: error %v is not %s", doc, err, recall.EINVALID)
			}
			return
		}
		if len(m.Metadata) > 0 {
			var obj map[string]any
			if err := json.Unmarshal(m.Metadata, &obj); err != nil || obj == nil {
				t.Fatalf("%q: metadata %s is not a JSON object", doc, m.Metadata)
			}
		}
		if m.Key != "" && m.Key == recall.Slugify(m.Title) {
			if err := recall.ValidateKey(m.Key); err != nil {
				t.Fatalf("derived key %q of title %q: %v", m.Key, m.Title, err)
			}
		}
		res, err := svc.PutMemory(ctx, m)
		if err != nil {
			switch code := recall.ErrorCode(err); {
			case code == recall.EINVALID, code == recall.ETOOLARGE:
				return
			case code == recall.ECONFLICT && m.Pinned: // a second pin with the same title
				return
			}
			t.Fatalf("%q: put: %v", doc, err)
		}
		if _, err := json.Marshal(res.Memory); err != nil {
			t.Fatalf("%q: stored memory does not export: %v", doc, err)
		}
		got, err := svc.FindMemory(ctx, res.Memory.ID, "")
		if err != nil {
			t.Fatalf("%q: read back: %v", doc, err)
		}
		if _, err := json.Marshal(got); err != nil {
			t.Fatalf("%q: read-back memory does not export: %v", doc, err)
		}
	})
}
