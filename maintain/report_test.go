package maintain_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/maintain"
)

func TestWriteReport_OverBudgetAllPinned(t *testing.T) {
	in := maintain.Input{Now: now, Budget: 2}
	entry(&in, "tr0000000001", "CLAUDE.local.md", "pinned core memory here", recall.Memory{Pinned: true})
	var buf bytes.Buffer
	maintain.WriteReport(&buf, maintain.Plan(in))
	want := "recall-maintain — all clear\n" + strings.Repeat("━", 26) + "\n\n" +
		"Working memory: 4 words (target: 2, over by 2)\n" +
		"No pressure candidates: every working entry is pinned or snoozed.\n" +
		"No superseded entries pending cleanup.\nNo action needed.\n\n"
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}

func TestWriteSummary(t *testing.T) {
	s := &maintain.Summary{Before: 1523, After: 1482, Target: 1500, SnoozedUntil: now.AddDate(0, 0, 30), MetadataFile: true, Entries: 42}
	for _, a := range []string{maintain.ActKeep, maintain.ActSnooze, maintain.ActDemote, maintain.ActDemote} {
		s.Count(a)
	}
	var buf bytes.Buffer
	maintain.WriteSummary(&buf, s)
	for _, line := range []string{
		"recall-maintain — complete\n━━━━━━━━━━━━━━━━━━━━━━━━━━\n\n",
		"Working memory: 1523 -> 1482 words (target: 1500)\n",
		"  Kept (reviewed): 1\n", "  Snoozed: 1 (until 2026-02-14)\n", "  Demoted to _inbox.md: 2\n",
		"Metadata: 42 entries in memory/.recall/metadata.json\n",
	} {
		if !strings.Contains(buf.String(), line) {
			t.Errorf("missing %q in\n%s", line, buf.String())
		}
	}
}

// FuzzParseApply checks that --apply either parses into valid choices or
// fails with EINVALID, never anything else.
func FuzzParseApply(f *testing.F) {
	for _, s := range []string{"tr0000000001=d", "^tr0000000001=keep,tr0000000002=pin", "x=y", ",,", "tr0000000001=update"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cs, err := maintain.ParseApply(s)
		if err != nil {
			if recall.ErrorCode(err) != recall.EINVALID {
				t.Fatalf("error %v is not EINVALID", err)
			}
			return
		}
		for _, c := range cs {
			if !recall.IsID(c.ID) || c.Action == "" || c.Action == maintain.ActUpdate {
				t.Fatalf("bad choice %+v", c)
			}
		}
	})
}
