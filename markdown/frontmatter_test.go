package markdown_test

import (
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
	for _, s := range []string{"---\ntitle: x\n---\nbody", "---\r\na: 1\r\n---\r\n", "---\n---", "---\n", "plain", "---\n- [\n---\n"} {
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
		if len(body) > len(doc) {
			t.Fatalf("body longer than doc")
		}
	})
}
