package markdown_test

import (
	"bytes"
	"testing"

	"github.com/recall-mem/recall/markdown"
)

func TestSplitFrontmatter(t *testing.T) {
	fm, body, err := markdown.SplitFrontmatter([]byte("---\ntitle: Hello\ntags: [a, b]\n---\n# Body\n"))
	if err != nil {
		t.Fatal(err)
	}
	if fm.String("title") != "Hello" || len(fm.Strings("tags")) != 2 || string(body) != "# Body\n" {
		t.Fatalf("fm=%v body=%q", fm, body)
	}
	fm, body, _ = markdown.SplitFrontmatter([]byte("no frontmatter\n---\n"))
	if fm != nil || string(body) != "no frontmatter\n---\n" {
		t.Fatalf("fm=%v body=%q", fm, body)
	}
	if _, _, err := markdown.SplitFrontmatter([]byte("---\n: [\n---\nx")); err == nil {
		t.Fatal("want error for malformed YAML")
	}
}

func FuzzSplitFrontmatter(f *testing.F) {
	for _, s := range []string{"---\ntitle: x\n---\nbody", "---\r\na: 1\r\n---\r\n", "---\n---", "---\n", "plain", "---\n- [\n---\n", "---\n&0\n---", "---\n# c\n---\nx"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		fm, body, err := markdown.SplitFrontmatter(doc)
		if err != nil || fm == nil {
			if string(body) != string(doc) {
				t.Fatalf("body changed without frontmatter")
			}
			return
		}
		if !bytes.HasPrefix(doc, []byte("---")) || !bytes.HasSuffix(doc, body) || len(body) >= len(doc) {
			t.Fatalf("body %q is not what follows a frontmatter block of %q", body, doc)
		}
	})
}

// A fenced block is frontmatter only when it is YAML key: value pairs (or
// holds nothing but blanks and comments). Anything else is an error that
// leaves the document whole, never an empty map or a lost block.
func TestSplitFrontmatter_NotAMapping(t *testing.T) {
	for _, doc := range []string{"---\n&0\n---", "---\n~\n---\nbody\n", "---\nnull\n---\nbody", "---\n- a\n---\nbody", "---\njust words\n---\nbody"} {
		fm, body, err := markdown.SplitFrontmatter([]byte(doc))
		if err == nil || fm != nil || string(body) != doc {
			t.Errorf("%q: fm=%v body=%q err=%v, want an error and the whole document", doc, fm, body, err)
		}
	}
	for _, doc := range []string{"---\n---\nbody", "---\n# a comment\n\n---\nbody"} {
		fm, body, err := markdown.SplitFrontmatter([]byte(doc))
		if err != nil || fm == nil || len(fm) != 0 || string(body) != "body" {
			t.Errorf("%q: fm=%v body=%q err=%v, want empty frontmatter", doc, fm, body, err)
		}
	}
}
