package markdown_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/markdown"
)

// writeFiles creates files under root from a path → content map.
func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, s := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func readFile(t *testing.T, root, p string) string {
	t.Helper()
	buf, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
	if err != nil {
		t.Fatal(err)
	}
	return string(buf)
}

func TestLoad(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"AGENTS.md":                          "- w ^tr0000000001\n",
		"CLAUDE.local.md":                    "- not managed: another working file is configured ^tr0000000009\n",
		"memory/registers/b.md":              "- r ^tr0000000002\n",
		"memory/registers/sub/deep.md":       "- not managed: registers are one level ^tr0000000008\n",
		"memory/archive/ARCHIVE.md":          "- a ^tr0000000003\n",
		"memory/archive/daily/2025-01-01.md": "- d ^tr0000000004\n",
		"memory/daily/2025-01-01.md":         "- not managed ^tr0000000007\n",
	})
	set, err := markdown.Load(root, "AGENTS.md")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range set.Entries() {
		got = append(got, e.ID+" "+e.Tier+" "+e.File)
	}
	want := []string{
		"tr0000000001 working AGENTS.md",
		"tr0000000003 archive memory/archive/ARCHIVE.md",
		"tr0000000004 archive memory/archive/daily/2025-01-01.md",
		"tr0000000002 register memory/registers/b.md",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestSet_Move(t *testing.T) {
	t.Run("CreatesInboxWithHeader", func(t *testing.T) {
		root := t.TempDir()
		writeFiles(t, root, map[string]string{"CLAUDE.local.md": "# W\n- keep ^tr0000000001\n- go ^tr0000000002\n"})
		set, _ := markdown.Load(root, "")
		if _, err := set.Move("tr0000000002", markdown.InboxFile); err != nil {
			t.Fatal(err)
		}
		if _, err := set.Write(); err != nil {
			t.Fatal(err)
		}
		if got, want := readFile(t, root, "CLAUDE.local.md"), "# W\n- keep ^tr0000000001\n"; got != want {
			t.Errorf("source: %q, want %q", got, want)
		}
		want := markdown.InboxHeader + "- go ^tr0000000002\n"
		if got := readFile(t, root, markdown.InboxFile); got != want {
			t.Errorf("inbox: %q, want %q", got, want)
		}
	})
	t.Run("LastLineWithoutNewlineIntoCRLFFile", func(t *testing.T) {
		root := t.TempDir()
		writeFiles(t, root, map[string]string{
			"CLAUDE.local.md":           "- a ^tr0000000001\n- b ^tr0000000002",
			"memory/archive/ARCHIVE.md": "# Archive\r\n- old ^tr0000000003",
		})
		set, _ := markdown.Load(root, "")
		if _, err := set.Move("tr0000000002", markdown.ArchiveFile); err != nil {
			t.Fatal(err)
		}
		if _, err := set.Write(); err != nil {
			t.Fatal(err)
		}
		if got, want := readFile(t, root, "CLAUDE.local.md"), "- a ^tr0000000001\n"; got != want {
			t.Errorf("source: %q, want %q", got, want)
		}
		if got, want := readFile(t, root, markdown.ArchiveFile), "# Archive\r\n- old ^tr0000000003\r\n- b ^tr0000000002\r\n"; got != want {
			t.Errorf("archive: %q, want %q", got, want)
		}
	})
	t.Run("IntoManagedSection", func(t *testing.T) {
		root := t.TempDir()
		writeFiles(t, root, map[string]string{
			"CLAUDE.local.md": "- keep ^tr0000000001\n- go ^tr0000000002\n",
			"AGENTS.md":       "# Agents\n- an instruction\n<!-- recall:begin -->\n- mine ^tr0000000003\n<!-- recall:end -->\nFooter\n",
		})
		set, _ := markdown.Load(root, "AGENTS.md")
		set.Files = append(set.Files, markdown.NewFile("CLAUDE.local.md", recall.TierRegister, []byte(readFile(t, root, "CLAUDE.local.md"))))
		if _, err := set.Move("tr0000000002", "AGENTS.md"); err != nil {
			t.Fatal(err)
		}
		want := "# Agents\n- an instruction\n<!-- recall:begin -->\n- mine ^tr0000000003\n- go ^tr0000000002\n<!-- recall:end -->\nFooter\n"
		if got := string(set.File("AGENTS.md").Bytes()); got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	})
	t.Run("UnknownID", func(t *testing.T) {
		set, _ := markdown.Load(t.TempDir(), "")
		if _, err := set.Move("tr0000000001", markdown.ArchiveFile); err == nil {
			t.Fatal("want an error")
		}
	})
}

// TestSet_Move_OtherLinesIdentical is a property test: whatever the file
// holds (prose, code fences, nested lists, CRLF, Unicode, a missing final
// newline), demoting or archiving one entry removes exactly its line from
// the source, leaves every other line byte-identical and in order, and
// appends the line unchanged to the destination.
func TestSet_Move_OtherLinesIdentical(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	fragments := []string{
		"# Heading", "", "Some prose with ünïcödé ✓.", "```", "- in a fence, or not", "```",
		"  - nested child", "* star item", "> quote", "- (none)", "\t- tabbed",
	}
	for n := 0; n < 300; n++ {
		var lines []string
		for i := 0; i < 3+rng.IntN(15); i++ {
			if rng.IntN(3) == 0 {
				id := fmt.Sprintf("tr%010x", n*100+i+1)
				lines = append(lines, "- entry "+id[6:]+" naïve ✓ ^"+id)
			} else {
				lines = append(lines, fragments[rng.IntN(len(fragments))])
			}
		}
		eol := "\n"
		if rng.IntN(2) == 0 {
			eol = "\r\n"
		}
		src := strings.Join(lines, eol)
		if rng.IntN(2) == 0 {
			src += eol
		}
		f := markdown.NewFile("CLAUDE.local.md", recall.TierWorking, []byte(src))
		entries := f.Items()
		var tagged []markdown.Item
		for _, it := range entries {
			if it.ID != "" {
				tagged = append(tagged, it)
			}
		}
		if len(tagged) == 0 {
			continue
		}
		pick := tagged[rng.IntN(len(tagged))]
		set := &markdown.Set{Root: t.TempDir(), WorkingFile: "CLAUDE.local.md", Files: []*markdown.File{f}}
		before := markdown.SplitLines([]byte(src))
		dest := markdown.InboxFile
		if rng.IntN(2) == 0 {
			dest = markdown.ArchiveFile
		}
		if _, err := set.Move(pick.ID, dest); err != nil {
			t.Fatalf("case %d: %v", n, err)
		}
		after := f.Lines
		want := append(append([]string{}, before[:pick.Line-1]...), before[pick.Line:]...)
		if strings.Join(after, "") != strings.Join(want, "") {
			t.Fatalf("case %d: moving line %d changed other lines:\n%q\nwant\n%q", n, pick.Line, after, want)
		}
		moved := strings.TrimRight(before[pick.Line-1], "\r\n")
		destLines := set.File(dest).Lines
		if got := strings.TrimRight(destLines[len(destLines)-1], "\r\n"); got != moved {
			t.Fatalf("case %d: appended %q, want %q", n, got, moved)
		}
	}
}

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sub", "f.md")
	if err := markdown.WriteFileAtomic(p, []byte("one"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := markdown.WriteFileAtomic(p, []byte("two"), 0o644); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v: an existing file keeps its permissions", fi.Mode().Perm())
	}
	if got := readFile(t, dir, "sub/f.md"); got != "two" {
		t.Errorf("got %q", got)
	}
	left, _ := filepath.Glob(filepath.Join(dir, "sub", ".*tmp*"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestSet_Write_Undo(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"CLAUDE.local.md": "- a ^tr0000000001\n"})
	set, _ := markdown.Load(root, "")
	if _, err := set.Move("tr0000000001", markdown.ArchiveFile); err != nil {
		t.Fatal(err)
	}
	undo, err := set.Write()
	if err != nil {
		t.Fatal(err)
	}
	if err := undo(); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, root, "CLAUDE.local.md"); got != "- a ^tr0000000001\n" {
		t.Errorf("source not restored: %q", got)
	}
	if _, err := os.Stat(filepath.Join(root, markdown.ArchiveFile)); !os.IsNotExist(err) {
		t.Errorf("created archive not removed: %v", err)
	}
}

func TestMetadata_Encode(t *testing.T) {
	in := []byte(`{"trb":{"tier":"working","extra":{"z":1,"a":2}},"tra":{"pinned":true,"created_at":"2026-01-01T00:00:00Z"}}`)
	md, err := markdown.DecodeMetadata(in)
	if err != nil {
		t.Fatal(err)
	}
	got := string(md.Encode())
	want := `{
  "tra": {
    "created_at": "2026-01-01T00:00:00Z",
    "pinned": true
  },
  "trb": {
    "extra": {
      "a": 2,
      "z": 1
    },
    "tier": "working"
  }
}
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	again, _ := markdown.DecodeMetadata([]byte(got))
	if string(again.Encode()) != got {
		t.Error("encoding is not stable")
	}
	if _, err := markdown.DecodeMetadata([]byte(`[1]`)); recall.ErrorCode(err) != recall.EINVALID {
		t.Errorf("want EINVALID for an array, got %v", err)
	}
}

// FuzzDecodeMetadata checks that any metadata.json either fails with
// EINVALID or re-encodes to bytes that are stable across a second round.
func FuzzDecodeMetadata(f *testing.F) {
	for _, s := range []string{`{}`, `{"tr0000000001":{"pinned":true,"tier":"working"}}`, `[]`, `{"a":{"b":[1,2.5e3,null]}}`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, buf []byte) {
		md, err := markdown.DecodeMetadata(buf)
		if err != nil {
			if recall.ErrorCode(err) != recall.EINVALID {
				t.Fatalf("error %v is not EINVALID", err)
			}
			return
		}
		once := md.Encode()
		again, err := markdown.DecodeMetadata(once)
		if err != nil {
			t.Fatalf("re-decoding %q: %v", once, err)
		}
		if twice := again.Encode(); !bytes.Equal(once, twice) {
			t.Fatalf("unstable encoding:\n%s\n%s", once, twice)
		}
	})
}
