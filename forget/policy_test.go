package forget_test

import (
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/forget"
)

var now = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func TestPolicy(t *testing.T) {
	t.Run("Defaults", func(t *testing.T) {
		p := forget.Policy(false, nil, 30)
		if p.Enabled || p.Days["file_read"] != 90 || p.Days["user_prompt"] != 730 || p.Days["command"] != 180 || len(p.Days) != 10 {
			t.Fatalf("policy = %+v", p)
		}
		if _, ok := p.Days[recall.ObsAgentThinking]; ok {
			t.Error("a type missing from the seed's table got a period")
		}
	})
	t.Run("OverrideAndDisable", func(t *testing.T) {
		p := forget.Policy(true, map[string]int{"file_read": 30, "search": 0, "agent_thinking": 14}, -1)
		if p.Days["file_read"] != 30 || p.Days["agent_thinking"] != 14 || p.Days["user_prompt"] != 730 {
			t.Errorf("days = %v", p.Days)
		}
		if _, ok := p.Days["search"]; ok {
			t.Error("0 days should turn a type off")
		}
		if p.CompactedDays != 0 {
			t.Errorf("compacted days = %d", p.CompactedDays)
		}
	})
}

func TestShouldSweep(t *testing.T) {
	on := recall.RetentionPolicy{Enabled: true}
	for _, tt := range []struct {
		p    recall.RetentionPolicy
		old  int
		want bool
	}{
		{on, 100, true},
		{on, 99, false},
		{recall.RetentionPolicy{}, 10_000, false},
	} {
		if got := forget.ShouldSweep(tt.p, tt.old); got != tt.want {
			t.Errorf("ShouldSweep(%v, %d) = %v", tt.p.Enabled, tt.old, got)
		}
	}
}

func TestPurgeCutoff(t *testing.T) {
	if got := forget.PurgeCutoff(now, 0); !got.After(now) {
		t.Errorf("--older-than 0 must match this very second: cutoff %v", got)
	}
	if got, want := forget.PurgeCutoff(now, 90), now.Add(time.Second).AddDate(0, 0, -90); !got.Equal(want) {
		t.Errorf("cutoff = %v, want %v", got, want)
	}
}

func TestResolve(t *testing.T) {
	days := func(n int) *int { return &n }
	for _, tt := range []struct {
		name string
		c    recall.PurgeCriteria
		err  string // substring of the message; "" means valid
	}{
		{"NoFilter", recall.PurgeCriteria{}, "at least one filter"},
		{"MemoriesAloneIsNoFilter", recall.PurgeCriteria{Memories: true}, "at least one filter"},
		{"OlderThanNeedsType", recall.PurgeCriteria{OlderThanDays: days(30)}, "--older-than needs --type"},
		{"NegativeDays", recall.PurgeCriteria{Type: "x", OlderThanDays: days(-1)}, "0 or more"},
		{"SessionOfMemories", recall.PurgeCriteria{Session: "s", Memories: true}, "memories have no session"},
		{"ObservationIDWithMemories", recall.PurgeCriteria{ObservationID: 4, Memories: true}, "observation number"},
		{"BlankSearch", recall.PurgeCriteria{Search: "  "}, "needs some words"},
		{"TypeAndAge", recall.PurgeCriteria{Type: "file_read", OlderThanDays: days(90)}, ""},
		{"MemoryID", recall.PurgeCriteria{MemoryID: "tr0123456789"}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.c
			err := forget.Resolve(&c, now)
			if tt.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if recall.ErrorCode(err) != recall.EINVALID || !strings.Contains(recall.ErrorMessage(err), tt.err) {
				t.Fatalf("err = %v, want EINVALID with %q", err, tt.err)
			}
		})
	}
	t.Run("FillsCutoffAndTarget", func(t *testing.T) {
		c := recall.PurgeCriteria{Type: "file_read", OlderThanDays: days(0), MemoryID: "tr0123456789"}
		if err := forget.Resolve(&c, now); err != nil {
			t.Fatal(err)
		}
		if c.Cutoff == nil || !c.Cutoff.After(now) || !c.Memories || c.Target() != recall.PurgeMemories {
			t.Fatalf("criteria = %+v", c)
		}
	})
}

func TestParseID(t *testing.T) {
	if n, m, err := forget.ParseID("42"); err != nil || n != 42 || m != "" {
		t.Errorf("42 → %d %q %v", n, m, err)
	}
	if n, m, err := forget.ParseID("tr0123456789"); err != nil || n != 0 || m != "tr0123456789" {
		t.Errorf("tr… → %d %q %v", n, m, err)
	}
	for _, bad := range []string{"", "0", "-3", "tr12", "abc"} {
		if _, _, err := forget.ParseID(bad); recall.ErrorCode(err) != recall.EINVALID {
			t.Errorf("ParseID(%q) err = %v", bad, err)
		}
	}
}

func FuzzParseID(f *testing.F) {
	for _, s := range []string{"42", "tr0123456789", "", "-1", "9223372036854775808"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, m, err := forget.ParseID(s)
		if err != nil {
			return
		}
		if (n > 0) == (m != "") {
			t.Fatalf("ParseID(%q) = %d, %q: exactly one kind of id expected", s, n, m)
		}
		if m != "" && !recall.IsID(m) {
			t.Fatalf("ParseID(%q) returned a malformed memory id %q", s, m)
		}
	})
}

func TestCriteria_Describe(t *testing.T) {
	before := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	c := recall.PurgeCriteria{Before: &before, Project: "old-app", Search: "sk-live-SECRET", Memories: true}
	got := c.Describe()
	if strings.Contains(got, "SECRET") {
		t.Fatalf("Describe leaks the search text: %s", got)
	}
	if want := `--before "2025-01-01T00:00:00Z" --project "old-app" --search (withheld) --memories`; got != want {
		t.Errorf("Describe = %s, want %s", got, want)
	}
}
