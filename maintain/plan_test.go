package maintain_test

import (
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/maintain"
)

var now = time.Date(2026, 1, 15, 12, 0, 0, 0, time.UTC)

func daysAgo(n int) *time.Time {
	t := now.AddDate(0, 0, -n)
	return &t
}

// entry is a working-file entry of n words with its memory.
func entry(in *maintain.Input, id, file, text string, m recall.Memory) {
	tier := recall.TierRegister
	switch {
	case file == "CLAUDE.local.md":
		tier = recall.TierWorking
	case strings.HasPrefix(file, "memory/archive/"):
		tier = recall.TierArchive
	}
	in.Entries = append(in.Entries, recall.ManagedEntry{ID: id, File: file, Line: len(in.Entries) + 1, Text: text, Tier: tier})
	if in.Memories == nil {
		in.Memories = map[string]*recall.Memory{}
	}
	m.ID, m.Tier = id, tier
	if m.Status == "" {
		m.Status = recall.StatusActive
	}
	in.Memories[id] = &m
}

func words(n int) string { return strings.TrimSpace(strings.Repeat("w ", n)) }

func ids(cs []recall.MaintainCandidate) string {
	var out []string
	for _, c := range cs {
		out = append(out, c.ID)
	}
	return strings.Join(out, ",")
}

func TestPlan_Pressure(t *testing.T) {
	t.Run("UnderBudget", func(t *testing.T) {
		in := maintain.Input{Now: now, Budget: 100}
		entry(&in, "tr0000000001", "CLAUDE.local.md", words(100), recall.Memory{ReviewedAt: daysAgo(1)})
		p := maintain.Plan(in)
		if p.WorkingWords != 100 || p.NeedToFree != 0 || len(p.PressureCandidates) != 0 {
			t.Errorf("got %+v", p)
		}
	})
	t.Run("MinimalSetByScore", func(t *testing.T) {
		in := maintain.Input{Now: now, Budget: 20}
		entry(&in, "tr0000000001", "CLAUDE.local.md", words(10), recall.Memory{ReviewedAt: daysAgo(0)})  // 10
		entry(&in, "tr0000000002", "CLAUDE.local.md", words(8), recall.Memory{ReviewedAt: daysAgo(100)}) // 18
		entry(&in, "tr0000000003", "CLAUDE.local.md", words(9), recall.Memory{})                         // 9 + 36.5 (never reviewed)
		entry(&in, "tr0000000004", "CLAUDE.local.md", words(5), recall.Memory{ReviewedAt: daysAgo(0)})   // 5
		entry(&in, "tr0000000005", "memory/registers/a.md", words(50), recall.Memory{})
		p := maintain.Plan(in)
		if p.WorkingWords != 32 || p.NeedToFree != 12 {
			t.Fatalf("words %d need %d", p.WorkingWords, p.NeedToFree)
		}
		if got := ids(p.PressureCandidates); got != "tr0000000003,tr0000000002" {
			t.Errorf("candidates %s", got)
		}
		c := p.PressureCandidates[0]
		if c.DaysSinceReview != 365 || c.Score != 45.5 || c.Action != maintain.ActDemote {
			t.Errorf("candidate %+v", c)
		}
	})
	t.Run("PinnedAndSnoozedExcluded", func(t *testing.T) {
		in := maintain.Input{Now: now, Budget: 5}
		entry(&in, "tr0000000001", "CLAUDE.local.md", words(50), recall.Memory{Pinned: true})
		entry(&in, "tr0000000002", "CLAUDE.local.md", words(40), recall.Memory{SnoozedUntil: daysAgo(-3)})
		entry(&in, "tr0000000003", "CLAUDE.local.md", words(3), recall.Memory{SnoozedUntil: daysAgo(3)}) // expired
		p := maintain.Plan(in)
		if got := ids(p.PressureCandidates); got != "tr0000000003" {
			t.Errorf("candidates %s", got)
		}
	})
	t.Run("Tokens", func(t *testing.T) {
		in := maintain.Input{Now: now, Budget: 3, Unit: maintain.UnitTokens}
		entry(&in, "tr0000000001", "CLAUDE.local.md", "internationalisation is hard", recall.Memory{})
		p := maintain.Plan(in)
		if p.Unit != maintain.UnitTokens || p.WorkingWords != 7 || p.NeedToFree != 4 {
			t.Errorf("got %+v", p)
		}
	})
	t.Run("DefaultBudget", func(t *testing.T) {
		if p := maintain.Plan(maintain.Input{Now: now}); p.Target != recall.DefaultBudgetWords {
			t.Errorf("target %d", p.Target)
		}
	})
}

func TestPlan_Superseded(t *testing.T) {
	in := maintain.Input{Now: now}
	entry(&in, "tr0000000001", "memory/registers/a.md", "old", recall.Memory{Status: recall.StatusSuperseded})
	entry(&in, "tr0000000002", "memory/archive/ARCHIVE.md", "older", recall.Memory{Status: recall.StatusSuperseded})
	entry(&in, "tr0000000003", "CLAUDE.local.md", "current", recall.Memory{})
	p := maintain.Plan(in)
	if got := ids(p.SupersededCandidates); got != "tr0000000001" || p.SupersededCandidates[0].Action != maintain.ActArchive {
		t.Errorf("superseded %s", got)
	}
}

func kinds(p *recall.MaintainPlan) map[string][]recall.MaintainFinding {
	out := map[string][]recall.MaintainFinding{}
	for _, f := range p.Findings {
		out[f.Kind] = append(out[f.Kind], f)
	}
	return out
}

func TestPlan_SecondaryChecks(t *testing.T) {
	in := maintain.Input{Now: now}
	entry(&in, "tr0000000001", "memory/registers/a.md", "reviewed long ago", recall.Memory{ReviewedAt: daysAgo(31)})
	entry(&in, "tr0000000002", "memory/registers/a.md", "reviewed lately", recall.Memory{ReviewedAt: daysAgo(29)})
	entry(&in, "tr0000000003", "memory/registers/a.md", "snoozed", recall.Memory{ReviewedAt: daysAgo(90), SnoozedUntil: daysAgo(-1)})
	entry(&in, "tr0000000004", "CLAUDE.local.md", "working is never stale", recall.Memory{ReviewedAt: daysAgo(90)})
	entry(&in, "tr0000000005", "memory/registers/open-loops.md", "[ ] write it due: 2026-01-14", recall.Memory{ReviewedAt: daysAgo(1)})
	entry(&in, "tr0000000006", "memory/registers/open-loops.md", "[x] done it", recall.Memory{ReviewedAt: daysAgo(1)})
	entry(&in, "tr0000000007", "memory/registers/open-loops.md", "[ ] later due: 2026-01-15", recall.Memory{ReviewedAt: daysAgo(1)})
	in.DailyLogs = []string{"memory/daily/2025-12-15.md", "memory/daily/2025-12-16.md", "memory/daily/notes.md"}
	in.Anchored = []*recall.Memory{
		{ID: "tr0000000008", Title: "parser", Anchors: []recall.Anchor{{Path: "a.go", Hash: "h1"}, {Path: "b.go", Hash: "h2"}, {Path: "c.go", Hash: "h3"}, {Path: "../x", Hash: "h4"}}},
	}
	in.FileHashes = map[string]string{"a.go": "h1", "b.go": "changed", "c.go": ""}
	in.FileProblems = map[string]string{"../x": "outside the project"}
	k := kinds(maintain.Plan(in))
	if len(k[recall.FindingStale]) != 1 || k[recall.FindingStale][0].IDs[0] != "tr0000000001" {
		t.Errorf("stale %+v", k[recall.FindingStale])
	}
	var loops []string
	for _, f := range k[recall.FindingOpenLoop] {
		loops = append(loops, f.IDs[0]+" "+f.Message)
	}
	if got, want := strings.Join(loops, "; "), "tr0000000005 past due (due 2026-01-14); tr0000000006 resolved"; got != want {
		t.Errorf("open loops %q, want %q", got, want)
	}
	if d := k[recall.FindingDailyLog]; len(d) != 1 || d[0].File != "memory/daily/2025-12-15.md" {
		t.Errorf("daily logs %+v", d)
	}
	var anchors []string
	for _, f := range k[recall.FindingAnchor] {
		anchors = append(anchors, f.Message+" "+strings.Join(f.Actions, ","))
	}
	if got := strings.Join(anchors, "; "); got != "b.go changed since the memory was last reviewed verify,update,archive; "+
		"c.go is gone since the memory was last reviewed verify,update,archive; "+
		"../x cannot be checked: outside the project; anchor a file inside the project or archive the memory update,archive" {
		t.Errorf("anchors %q", got)
	}
}

func TestPlan_Contradictions(t *testing.T) {
	tests := []struct {
		name, a, b, want string
	}{
		{"SameKey", "Deploy target: AWS", "deploy target: GCP", `same key "deploy target" with different values`},
		{"LabelIsNoKey", "Note: use tabs in Go files", "Note: deploys happen on Fridays", ""},
		{"SameKeySameValue", "Deploy target: AWS", "Deploy target: aws.", ""},
		{"Number", "Using Postgres 15 in production", "Using Postgres 16 in production", "near-duplicates disagree on a number"},
		{"Date", "The launch is on 2026-03-01 for the beta users", "The launch is on 2026-04-01 for the beta users", "near-duplicates disagree on a date"},
		{"Name", "The release is approved by Alice every week", "The release is approved by Bob every week", "near-duplicates disagree on a name"},
		{"Negation", "The staging database is reset nightly", "The staging database is not reset nightly", "near-duplicates disagree on a negation"},
		{"DifferentThings", "Using Node 16 in production", "Using Postgres 15 in production", ""},
		{"Unrelated", "Dave prefers tabs", "The cache expires after 10 minutes", ""},
		{"Identical", "Same words here", "same words here", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := maintain.Input{Now: now}
			entry(&in, "tr0000000001", "CLAUDE.local.md", tt.a, recall.Memory{ReviewedAt: daysAgo(1)})
			entry(&in, "tr0000000002", "memory/registers/a.md", tt.b, recall.Memory{ReviewedAt: daysAgo(1)})
			got := ""
			if fs := kinds(maintain.Plan(in))[recall.FindingContradiction]; len(fs) > 0 {
				got = fs[0].Message
				if len(fs[0].Entries) != 2 {
					t.Errorf("want both sides, got %+v", fs[0].Entries)
				}
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestParseApply(t *testing.T) {
	got, err := maintain.ParseApply("^tr0000000001=d, tr0000000002=pin,tr0000000003=mark_superseded")
	if err != nil {
		t.Fatal(err)
	}
	want := []maintain.Choice{{ID: "tr0000000001", Action: maintain.ActDemote}, {ID: "tr0000000002", Action: maintain.ActPin}, {ID: "tr0000000003", Action: maintain.ActSupersede}}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("got %+v, want %+v", got[i], want[i])
		}
	}
	for _, bad := range []string{"", "tr0000000001", "x=keep", "tr0000000001=explode", "tr0000000001=keep,tr0000000001=pin", "tr0000000001=update"} {
		if _, err := maintain.ParseApply(bad); recall.ErrorCode(err) != recall.EINVALID {
			t.Errorf("ParseApply(%q): want EINVALID, got %v", bad, err)
		}
	}
}

func TestEffect(t *testing.T) {
	working := &recall.Memory{ID: "tr0000000001", Tier: recall.TierWorking, Status: recall.StatusActive,
		Anchors: []recall.Anchor{{Path: "a.go", Hash: "old"}}}
	o := maintain.Options{Now: now, SnoozeDays: 7, Hashes: map[string]string{"a.go": "new"}}
	t.Run("Demote", func(t *testing.T) {
		upd, tier, err := maintain.Effect(maintain.ActDemote, working, o)
		if err != nil || tier != recall.TierRegister || *upd.Tier != recall.TierRegister || !upd.ReviewedAt.Equal(now) {
			t.Errorf("got %+v %q %v", upd, tier, err)
		}
	})
	t.Run("DemoteRegisterRefused", func(t *testing.T) {
		reg := &recall.Memory{ID: "tr0000000002", Tier: recall.TierRegister}
		if _, _, err := maintain.Effect(maintain.ActDemote, reg, o); recall.ErrorCode(err) != recall.EINVALID {
			t.Errorf("want EINVALID, got %v", err)
		}
	})
	t.Run("Archive", func(t *testing.T) {
		upd, tier, _ := maintain.Effect(maintain.ActArchive, working, o)
		if tier != recall.TierArchive || *upd.Status != recall.StatusArchived {
			t.Errorf("got %+v %q", upd, tier)
		}
	})
	t.Run("Snooze", func(t *testing.T) {
		upd, tier, _ := maintain.Effect(maintain.ActSnooze, working, o)
		if tier != "" || !upd.SnoozedUntil.Equal(now.AddDate(0, 0, 7)) {
			t.Errorf("got %+v", upd)
		}
	})
	t.Run("VerifyRefreshesAnchors", func(t *testing.T) {
		upd, _, _ := maintain.Effect(maintain.ActVerify, working, o)
		if upd.Anchors == nil || (*upd.Anchors)[0].Hash != "new" || working.Anchors[0].Hash != "old" {
			t.Errorf("got %+v", upd.Anchors)
		}
	})
	t.Run("PinAndSupersede", func(t *testing.T) {
		upd, _, _ := maintain.Effect(maintain.ActPin, working, o)
		if !*upd.Pinned {
			t.Error("not pinned")
		}
		upd, _, _ = maintain.Effect(maintain.ActSupersede, working, o)
		if *upd.Status != recall.StatusSuperseded {
			t.Error("not superseded")
		}
	})
}
