package markdown_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/recall-mem/recall/markdown"
)

func TestParseItems(t *testing.T) {
	type item struct {
		line int
		text string
		id   string
	}
	tests := []struct {
		name string
		src  string
		want []item
	}{
		{"Entries", "# T\n\n- one ^tr0123456789\n- two\n", []item{{3, "one", "tr0123456789"}, {4, "two", ""}}},
		{"CRLF", "- one ^tr0123456789\r\n- two\r\n", []item{{1, "one", "tr0123456789"}, {2, "two", ""}}},
		{"NoTrailingNewline", "- one ^tr0123456789", []item{{1, "one", "tr0123456789"}}},
		{"TrailingSpaceAfterID", "- one ^tr0123456789  \n", []item{{1, "one", "tr0123456789"}}},
		{"Unicode", "- café naïve 日本語 ✓ ^tr0123456789\n", []item{{1, "café naïve 日本語 ✓", "tr0123456789"}}},
		{"CodeFence", "```\n- not an entry ^tr0123456789\n```\n- after ^tr1123456789\n", []item{{4, "after", "tr1123456789"}}},
		{"TildeFenceLongerClose", "~~~~\n- in\n~~~\n- still in\n~~~~~\n- out\n", []item{{6, "out", ""}}},
		{"UnclosedFence", "- before\n```go\n- inside\n", []item{{1, "before", ""}}},
		{"InlineBackticksNoFence", "```not a fence``` text\n- item\n", []item{{2, "item", ""}}},
		{"NestedListIsMultiLine", "- parent\n  - child\n- single\n", []item{{3, "single", ""}}},
		{"WrappedItemIsMultiLine", "- first line\n  continues here\n- single\n", []item{{3, "single", ""}}},
		{"BlankLineEndsItem", "- one\n\n  indented paragraph\n", []item{{1, "one", ""}}},
		{"IndentedIsNotEntry", "  - indented\n", nil},
		{"OtherBullets", "* star\n+ plus\n-no space\n1. number\n", nil},
		{"Placeholders", "- \n- (none)\n- ...\n- _add entries here_\n- <your note>\n- [placeholder]\n- TBD\n- <!-- comment -->\n", nil},
		{"CheckboxesAreEntries", "- [ ] open ^tr0123456789\n- [x] done\n", []item{{1, "[ ] open", "tr0123456789"}, {2, "[x] done", ""}}},
		{"IDLookalikes", "- upper ^trABCDEF0123\n- long ^tr0123456789a\n- short ^tr012345678\n- no caret tr0123456789\n- glued x^tr0123456789\n",
			[]item{{1, "upper ^trABCDEF0123", ""}, {2, "long ^tr0123456789a", ""}, {3, "short ^tr012345678", ""}, {4, "no caret tr0123456789", ""}, {5, "glued x^tr0123456789", ""}}},
		{"IDInTheMiddle", "- see ^tr0123456789 for more ^tr1123456789\n", []item{{1, "see ^tr0123456789 for more", "tr1123456789"}}},
		{"OnlyAnIDIsPlaceholder", "- ^tr0123456789\n", nil},
		{"Section", "# AGENTS\n- an instruction\n<!-- recall:begin -->\n- memory ^tr0123456789\n<!-- recall:end -->\n- another instruction\n", []item{{4, "memory", "tr0123456789"}}},
		{"SectionMarkerInFence", "```\n<!-- recall:begin -->\n```\n- item\n", []item{{4, "item", ""}}},
		{"Emphasis", "- *important* and *urgent*\n", []item{{1, "*important* and *urgent*", ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []item
			for _, it := range markdown.ParseItems([]byte(tt.src)) {
				got = append(got, item{it.Line, it.Text, it.ID})
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("item %d: got %+v, want %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestSplitLines_RoundTrip(t *testing.T) {
	for _, src := range []string{"", "a", "a\n", "a\r\nb", "\n\n", "x\r\n\r\ny\n"} {
		if got := strings.Join(markdown.SplitLines([]byte(src)), ""); got != src {
			t.Errorf("SplitLines(%q) joins to %q", src, got)
		}
	}
}

// FuzzParseItems checks the parser's invariants on any input: every item
// is a "- " line of the input at the line it names, its text and id are
// on that line, ids are well formed, and tagging an untagged item gives it
// that id without touching any other line.
func FuzzParseItems(f *testing.F) {
	for _, s := range []string{
		"- one ^tr0123456789\n- two\n",
		"```\n- in ^tr0123456789\n```\n- out\r\n",
		"- parent\n  - child ^tr0123456789\n",
		"- ünïcödé ✓ ^tr0123456789",
		"- x ^trABCDEF0123\n- y ^tr0123456789a\n",
		"~~~\n- a\n~~~~\n- b\n",
		"- x\n<!-- recall:begin -->\n- y ^tr0123456789\n<!-- recall:end -->\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		lines := markdown.SplitLines(src)
		if strings.Join(lines, "") != string(src) {
			t.Fatal("lines do not join to the input")
		}
		items := markdown.ParseItems(src)
		for _, it := range items {
			if it.Line < 1 || it.Line > len(lines) {
				t.Fatalf("line %d out of range", it.Line)
			}
			line := lines[it.Line-1]
			if !strings.HasPrefix(line, "- ") || !strings.Contains(line, it.Text) {
				t.Fatalf("item %+v does not match line %q", it, line)
			}
			if it.ID != "" && (len(it.ID) != 12 || !strings.Contains(line, "^"+it.ID)) {
				t.Fatalf("bad id %q on line %q", it.ID, line)
			}
		}
		if !utf8.Valid(src) {
			return
		}
		f := markdown.NewFile("x.md", "register", src)
		for _, it := range items {
			if it.ID != "" {
				continue
			}
			f.Tag(it.Line, "tr00000000ff")
			after := f.Lines
			for i := range lines {
				if i != it.Line-1 && after[i] != lines[i] {
					t.Fatalf("tagging line %d changed line %d", it.Line, i+1)
				}
			}
			again := markdown.ParseItems(f.Bytes())
			found := false
			for _, a := range again {
				if a.Line == it.Line && a.ID == "tr00000000ff" {
					found = true
				}
			}
			if !found {
				t.Fatalf("tagged line %q does not parse with its id", after[it.Line-1])
			}
			break
		}
	})
}
