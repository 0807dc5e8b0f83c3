package rollup_test

import (
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/rollup"
)

func obs(id, at, typ, key, text string) recall.RollupSource {
	return recall.RollupSource{Kind: recall.SourceObservation, ID: id, At: utc(at), Type: typ, Key: key, Text: text, Confidence: 1}
}

func only(t *testing.T, rs []*recall.Rollup) *recall.Rollup {
	t.Helper()
	if len(rs) != 1 {
		t.Fatalf("got %d rollups, want 1", len(rs))
	}
	return rs[0]
}

func TestPolicy_Summarize(t *testing.T) {
	p := mustPolicy(t, "UTC")
	b := p.Bucket(recall.Bucket4h, utc("2026-01-02T08:00:00Z"))

	t.Run("LatestValueWinsOnKeyCollision", func(t *testing.T) {
		r := only(t, p.Summarize(b, nil, []recall.RollupSource{
			obs("1", "2026-01-02T08:00:00Z", "preference", "editor", "uses Vim"),
			obs("2", "2026-01-02T09:00:00Z", "preference", "editor", "uses vim."),
			obs("3", "2026-01-02T10:00:00Z", "preference", "editor", "uses Helix"),
		}))
		if r.Value != "uses helix" {
			t.Fatalf("value = %q, want the latest", r.Value)
		}
		want := `editor (preference): uses Helix (said once; changed from "uses vim.", said twice)`
		if r.Summary != want {
			t.Fatalf("summary\n got %s\nwant %s", r.Summary, want)
		}
		if r.SourceCount != 3 || r.Entries != 3 || !r.LatestAt.Equal(utc("2026-01-02T10:00:00Z")) {
			t.Fatalf("counts %d/%d latest %v", r.SourceCount, r.Entries, r.LatestAt)
		}
	})
	t.Run("OrderOfSourcesDoesNotMatter", func(t *testing.T) {
		a := only(t, p.Summarize(b, nil, []recall.RollupSource{
			obs("2", "2026-01-02T09:00:00Z", "preference", "theme", "dark"),
			obs("1", "2026-01-02T08:00:00Z", "preference", "theme", "light"),
		}))
		if a.Value != "dark" {
			t.Fatalf("value = %q", a.Value)
		}
	})
	t.Run("ConfidenceRisesWithRepetition", func(t *testing.T) {
		var prev float64
		for n := 1; n <= 5; n++ {
			var src []recall.RollupSource
			for i := 0; i < n; i++ {
				src = append(src, obs("x", "2026-01-02T08:00:00Z", "fact", "city", "Berlin"))
			}
			r := only(t, p.Summarize(b, nil, src))
			if r.Confidence <= prev {
				t.Fatalf("%d repeats: confidence %v not above %v", n, r.Confidence, prev)
			}
			prev = r.Confidence
		}
		if prev < 0.9 {
			t.Fatalf("five agreeing entries give only %v", prev)
		}
	})
	t.Run("ConfidenceFallsWithConflict", func(t *testing.T) {
		agree := only(t, p.Summarize(b, nil, []recall.RollupSource{
			obs("1", "2026-01-02T08:00:00Z", "fact", "city", "Berlin"),
			obs("2", "2026-01-02T09:00:00Z", "fact", "city", "Berlin"),
		}))
		conflict := only(t, p.Summarize(b, nil, []recall.RollupSource{
			obs("1", "2026-01-02T08:00:00Z", "fact", "city", "Paris"),
			obs("2", "2026-01-02T09:00:00Z", "fact", "city", "Berlin"),
			obs("3", "2026-01-02T10:00:00Z", "fact", "city", "Berlin"),
		}))
		if conflict.Confidence >= agree.Confidence {
			t.Fatalf("conflicting %v >= agreeing %v", conflict.Confidence, agree.Confidence)
		}
	})
	t.Run("GroupsByTypeAndKey", func(t *testing.T) {
		rs := p.Summarize(b, nil, []recall.RollupSource{
			obs("1", "2026-01-02T08:00:00Z", "preference", "editor", "vim"),
			obs("2", "2026-01-02T08:10:00Z", "fact", "editor", "vim is installed"),
			obs("3", "2026-01-02T08:20:00Z", "command", "", "go test ./..."),
			obs("4", "2026-01-02T08:30:00Z", "command", "", "go test ./..."),
			obs("5", "2026-01-02T08:40:00Z", "command", "", "git status"),
		})
		var got []string
		for _, r := range rs {
			got = append(got, r.MemoryType+"/"+r.Key+": "+r.Summary)
		}
		want := []string{
			"command/: command: go test ./... (2×); git status (1×)",
			"fact/editor: editor (fact): vim is installed (said once)",
			"preference/editor: editor (preference): vim (said once)",
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	})
	t.Run("DeterministicIDs", func(t *testing.T) {
		src := []recall.RollupSource{obs("1", "2026-01-02T08:00:00Z", "preference", "editor", "vim")}
		a, c := only(t, p.Summarize(b, nil, src)), only(t, p.Summarize(b, nil, src))
		if a.ID != c.ID || len(a.ID) != 36 || a.ID[14] != '5' {
			t.Fatalf("ids %s %s", a.ID, c.ID)
		}
	})
	t.Run("LateEntriesMergeIntoExisting", func(t *testing.T) {
		first := only(t, p.Summarize(b, nil, []recall.RollupSource{
			obs("1", "2026-01-02T08:00:00Z", "preference", "editor", "vim"),
			obs("2", "2026-01-02T09:00:00Z", "preference", "editor", "vim"),
		}))
		late := only(t, p.Summarize(b, []*recall.Rollup{first}, []recall.RollupSource{
			obs("3", "2026-01-02T08:30:00Z", "preference", "editor", "helix"),
		}))
		// The late entry is older than the latest one: vim still wins.
		if late.Value != "vim" || late.Entries != 3 || late.SourceCount != 3 {
			t.Fatalf("got %+v", late)
		}
	})
	t.Run("CoarserTierKeepsRawConfidence", func(t *testing.T) {
		raw := []recall.RollupSource{
			obs("1", "2026-01-02T01:00:00Z", "preference", "editor", "vim"),
			obs("2", "2026-01-02T05:00:00Z", "preference", "editor", "vim"),
			obs("3", "2026-01-02T09:00:00Z", "preference", "editor", "helix"),
		}
		day := p.Bucket(recall.BucketDaily, utc("2026-01-02T00:00:00Z"))
		direct := only(t, p.Summarize(day, nil, raw))
		var children []recall.RollupSource
		for _, s := range raw {
			c := only(t, p.Summarize(p.Bucket(recall.Bucket4h, s.At), nil, []recall.RollupSource{s}))
			children = append(children, recall.RollupSource{Kind: recall.SourceRollup, ID: c.ID, At: c.BucketStart, Rollup: c})
		}
		rolled := only(t, p.Summarize(day, nil, children))
		if rolled.Confidence != direct.Confidence || rolled.Summary != direct.Summary || rolled.Entries != 3 || rolled.SourceCount != 3 {
			t.Fatalf("from 4h: %v %q; from raw: %v %q", rolled.Confidence, rolled.Summary, direct.Confidence, direct.Summary)
		}
	})
	t.Run("TallyIsCapped", func(t *testing.T) {
		var src []recall.RollupSource
		for i := 0; i < 30; i++ {
			src = append(src, obs("x", b.Start.Add(time.Duration(i)*time.Minute).Format(time.RFC3339), "command", "", strings.Repeat("x", i+1)))
		}
		r := only(t, p.Summarize(b, nil, src))
		if len(r.Values) != 8 || r.Entries != 30 || !strings.HasSuffix(r.Summary, "; +25 more") {
			t.Fatalf("values %d entries %d summary %q", len(r.Values), r.Entries, r.Summary)
		}
	})
	t.Run("EmptyTextsGiveNoRollup", func(t *testing.T) {
		if rs := p.Summarize(b, nil, []recall.RollupSource{obs("1", "2026-01-02T08:00:00Z", "note", "", "  ")}); len(rs) != 0 {
			t.Fatalf("got %+v", rs)
		}
	})
}

func TestConfidence(t *testing.T) {
	tests := []struct {
		base         float64
		agree, total int
		want         float64
	}{
		{1, 1, 1, 0.5},
		{1, 2, 2, 0.75},
		{1, 3, 3, 0.875},
		{1, 1, 3, 0.333},
		{0.8, 2, 2, 0.6},
		{1, 0, 3, 0},
	}
	for _, tt := range tests {
		if got := rollup.Confidence(tt.base, tt.agree, tt.total); got != tt.want {
			t.Errorf("Confidence(%v, %d, %d) = %v, want %v", tt.base, tt.agree, tt.total, got, tt.want)
		}
	}
}
