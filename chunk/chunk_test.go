package chunk_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/chunk"
)

// checkCover asserts the chunk invariants: in order, inside the content,
// non-overlapping, at most max bytes (when max > 0), valid UTF-8 bounds,
// and together holding every non-blank byte.
func checkCover(t *testing.T, content string, max int, cs []recall.Chunk) {
	t.Helper()
	if len(cs) == 0 {
		t.Fatal("no chunks")
	}
	covered := make([]bool, len(content))
	prev := 0
	for i, c := range cs {
		if c.Index != i {
			t.Fatalf("chunk %d has index %d", i, c.Index)
		}
		if c.Start < prev || c.End < c.Start || c.End > len(content) {
			t.Fatalf("chunk %d [%d,%d) out of order or bounds (prev end %d, len %d)", i, c.Start, c.End, prev, len(content))
		}
		if len(cs) > 1 && max > 0 && c.End-c.Start > max {
			t.Fatalf("chunk %d is %d bytes, over %d", i, c.End-c.Start, max)
		}
		if !utf8.ValidString(content) {
			continue
		}
		if !utf8.ValidString(content[c.Start:c.End]) {
			t.Fatalf("chunk %d splits a UTF-8 sequence", i)
		}
		for j := c.Start; j < c.End; j++ {
			covered[j] = true
		}
		prev = c.End
	}
	if len(cs) == 1 {
		return
	}
	for j, ok := range covered {
		if !ok && !strings.ContainsRune(" \t\r\n", rune(content[j])) && utf8.ValidString(content) {
			t.Fatalf("byte %d (%q) is in no chunk", j, content[j])
		}
	}
}

func TestSplitter_Chunk(t *testing.T) {
	t.Run("ShortIsOneChunk", func(t *testing.T) {
		content := "# Title\n\nA short memory."
		cs := chunk.Splitter{}.Chunk(content)
		if len(cs) != 1 || cs[0].Start != 0 || cs[0].End != len(content) {
			t.Fatalf("got %+v", cs)
		}
	})
	t.Run("SplitsAtHeadings", func(t *testing.T) {
		content := "# Guide\n\nIntro text.\n\n## Install\n\nRun make install.\n\n## Deploy\n\nPush the tag.\n\n### Rollback\n\nRevert the tag.\n"
		cs := chunk.Splitter{MaxBytes: 40}.Chunk(content)
		checkCover(t, content, 40, cs)
		var heads []string
		for _, c := range cs {
			heads = append(heads, c.Heading)
		}
		got, want := strings.Join(heads, "|"), "Guide|Guide > Install|Guide > Deploy|Guide > Deploy > Rollback"
		if got != want {
			t.Fatalf("headings = %q, want %q", got, want)
		}
		if text := content[cs[3].Start:cs[3].End]; text != "### Rollback\n\nRevert the tag." {
			t.Fatalf("last chunk = %q", text)
		}
	})
	t.Run("HeadingsInFencesIgnored", func(t *testing.T) {
		content := "# Real\n\n```sh\n# not a heading\necho hi\n```\n\n" + strings.Repeat("word ", 30)
		cs := chunk.Splitter{MaxBytes: 60}.Chunk(content)
		checkCover(t, content, 60, cs)
		for _, c := range cs {
			if c.Heading != "Real" {
				t.Fatalf("heading %q, want Real", c.Heading)
			}
		}
	})
	t.Run("PacksParagraphs", func(t *testing.T) {
		para := strings.Repeat("alpha beta gamma ", 5) // 85 bytes
		content := strings.Repeat(para+"\n\n", 10)
		cs := chunk.Splitter{MaxBytes: 200}.Chunk(content)
		checkCover(t, content, 200, cs)
		if len(cs) != 5 {
			t.Fatalf("got %d chunks, want 5 (two paragraphs each)", len(cs))
		}
	})
	t.Run("CutsLongLinesOnRuneBounds", func(t *testing.T) {
		content := strings.Repeat("é", 500) + " " + strings.Repeat("日本", 300)
		cs := chunk.Splitter{MaxBytes: 101}.Chunk(content)
		checkCover(t, content, 101, cs)
	})
	t.Run("DefaultMax", func(t *testing.T) {
		content := strings.Repeat("Some sentence here.\n\n", 300)
		cs := chunk.Splitter{}.Chunk(content)
		checkCover(t, content, chunk.DefaultMaxBytes, cs)
		if len(cs) < 4 {
			t.Fatalf("got %d chunks", len(cs))
		}
	})
}

func FuzzSplitter_Chunk(f *testing.F) {
	for _, s := range []string{"", "# a\nb", "```\n# x\n```\n## y\n\nz", strings.Repeat("ab ", 50), "#\n##\n###### six\n####### seven"} {
		f.Add(s, 16)
	}
	f.Fuzz(func(t *testing.T, content string, max int) {
		if max < 8 || max > 4096 {
			max = 8 + (max&0xff)%64
		}
		checkCover(t, content, max, chunk.Splitter{MaxBytes: max}.Chunk(content))
	})
}
