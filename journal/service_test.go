package journal_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/journal"
	"github.com/recall-mem/recall/pack"
	"github.com/recall-mem/recall/sqlite"
)

// newService returns a journal over a real store in a temporary directory
// with a clock the test moves.
func newService(t *testing.T, clock *time.Time) (*journal.Service, *sqlite.DB) {
	t.Helper()
	dir := t.TempDir()
	db := sqlite.NewDB(filepath.Join(dir, "recall.db"))
	db.Now = func() time.Time { return *clock }
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := db.Check(context.Background()); err != nil {
			t.Error(err)
		}
		db.Close()
	})
	store := sqlite.NewSessionService(db)
	store.HotSessions = 2
	mem := sqlite.NewMemoryService(db)
	s := &journal.Service{Store: store, Memories: mem, Dir: filepath.Join(dir, "memory"),
		Checker: db, Budget: 500, Now: func() time.Time { return *clock }}
	s.Context = pack.NewBuilder(pack.Section{Name: "heartbeat", Title: "recall heartbeat", Fetch: s.Findings},
		pack.Pinned(mem), pack.Section{Name: "sessions", Title: "Recent sessions", Fetch: journal.RecentSessions(store)})
	return s, db
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestService_Lifecycle(t *testing.T) {
	ctx := context.Background()
	clock := time.Date(2026, 1, 30, 9, 0, 0, 0, time.UTC)
	s, _ := newService(t, &clock)
	for i := 1; i <= 4; i++ {
		id := fmt.Sprintf("s%d", i)
		if _, err := s.StartSession(ctx, &recall.Session{ID: id, Project: "app"}); err != nil {
			t.Fatal(err)
		}
		end := recall.SessionEnd{ID: id, Summary: fmt.Sprintf("Did thing %d", i), Learned: "lesson " + id}
		if i == 1 {
			end.Pin = "Deploy rule"
			end.Learned = "Deploys go through staging."
		}
		if _, err := s.EndSession(ctx, end); err != nil {
			t.Fatal(err)
		}
		clock = clock.Add(24 * time.Hour)
	}
	rep, err := s.StartSession(ctx, &recall.Session{ID: "s5", Project: "app"})
	if err != nil {
		t.Fatal(err)
	}
	t.Run("Evicted", func(t *testing.T) {
		if got := strings.Join(rep.Evicted, ","); got != "s2" {
			t.Errorf("evicted %s, want s2 (s1 went at s4's start)", got)
		}
	})
	t.Run("Recent", func(t *testing.T) {
		recent := read(t, filepath.Join(s.Dir, journal.RecentFile))
		i4, i3 := strings.Index(recent, "## Session: February 02, 2026 — s4"), strings.Index(recent, "## Session: February 01, 2026 — s3")
		if i4 < 0 || i3 < 0 || i4 > i3 || strings.Contains(recent, "s2\n") {
			t.Errorf("RECENT.md:\n%s", recent)
		}
	})
	t.Run("SummaryAndArchive", func(t *testing.T) {
		summary := read(t, filepath.Join(s.Dir, journal.SummaryFile))
		want := "- January 30, 2026 (s1): Did thing 1\n- January 31, 2026 (s2): Did thing 2\n"
		if !strings.HasSuffix(summary, want) {
			t.Errorf("SUMMARY.md:\n%s", summary)
		}
		jan := read(t, filepath.Join(s.Dir, "archive", "2026-01.md"))
		if !strings.Contains(jan, "## Session: January 31, 2026 — s2") || !strings.Contains(jan, "**Learned:** lesson s2") {
			t.Errorf("archive:\n%s", jan)
		}
	})
	t.Run("PinnedAndContext", func(t *testing.T) {
		if pinned := read(t, filepath.Join(s.Dir, journal.PinnedFile)); !strings.Contains(pinned, "## Deploy rule\n\nDeploys go through staging.") {
			t.Errorf("PINNED.md:\n%s", pinned)
		}
		for _, want := range []string{"## Pinned core\n- Deploy rule: Deploys go through staging.", "## Recent sessions\n- February 02, 2026: Did thing 4 Learned: lesson s4\n- February 01, 2026: Did thing 3"} {
			if !strings.Contains(rep.Context, want) {
				t.Errorf("context lacks %q:\n%s", want, rep.Context)
			}
		}
	})
	t.Run("ArchiveIdempotent", func(t *testing.T) {
		before := read(t, filepath.Join(s.Dir, journal.SummaryFile))
		if _, err := s.StartSession(ctx, &recall.Session{ID: "s5"}); err != nil {
			t.Fatal(err)
		}
		if after := read(t, filepath.Join(s.Dir, journal.SummaryFile)); after != before {
			t.Errorf("SUMMARY.md changed on a repeated start:\n%s", after)
		}
	})
	t.Run("Drift", func(t *testing.T) {
		if d, err := s.Drift(ctx); err != nil || len(d) != 0 {
			t.Fatalf("drift %v %v", d, err)
		}
		os.WriteFile(filepath.Join(s.Dir, journal.RecentFile), []byte("edited\n"), 0o600)
		if d, _ := s.Drift(ctx); len(d) != 1 || !strings.HasSuffix(d[0], journal.RecentFile) {
			t.Errorf("drift %v, want RECENT.md", d)
		}
	})
}

func TestService_ContextBudget(t *testing.T) {
	ctx := context.Background()
	clock := time.Date(2026, 1, 30, 9, 0, 0, 0, time.UTC)
	s, _ := newService(t, &clock)
	s.Budget = 60
	for i := 0; i < 3; i++ {
		id := fmt.Sprintf("s%d", i)
		s.StartSession(ctx, &recall.Session{ID: id})
		s.EndSession(ctx, recall.SessionEnd{ID: id, Summary: strings.Repeat("long summary words ", 5)})
	}
	os.WriteFile(filepath.Join(s.Dir, journal.RecentFile), []byte("edited by hand\n"), 0o600)
	rep, err := s.StartSession(ctx, &recall.Session{ID: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(rep.Context, "## recall heartbeat\n- ") || !strings.Contains(rep.Context, "RECENT.md was changed outside recall") {
		t.Errorf("heartbeat findings missing:\n%s", rep.Context)
	}
	if tokens := (&pack.Tokenizer{}).Count(rep.Context); tokens > 60 {
		t.Errorf("context is %d tokens for a budget of 60:\n%s", tokens, rep.Context)
	}
}

func TestService_Sweep(t *testing.T) {
	ctx := context.Background()
	clock := time.Date(2026, 1, 30, 9, 0, 0, 0, time.UTC)
	s, _ := newService(t, &clock)
	var swept time.Time
	s.Upkeep = journal.UpkeepFunc(func(_ context.Context, now time.Time) (int, error) { swept = now; return 7, nil })
	rep, err := s.StartSession(ctx, &recall.Session{ID: "a"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Swept != 7 || !swept.Equal(clock) {
		t.Errorf("swept %d at %v", rep.Swept, swept)
	}
	s.Upkeep = journal.UpkeepFunc(func(context.Context, time.Time) (int, error) { return 0, fmt.Errorf("disk full") })
	rep, err = s.StartSession(ctx, &recall.Session{ID: "b"})
	if err != nil {
		t.Fatal("a failing sweep stopped the session:", err)
	}
	if len(rep.Problems) == 0 || !strings.Contains(rep.Problems[0], "disk full") || !strings.Contains(rep.Context, "disk full") {
		t.Errorf("sweep failure not reported: %+v", rep)
	}
}

// TestService_ArchiveHasNoListItems: the tier files' parser reads list
// items under memory/archive/ as entries, so session blocks never hold one.
func TestService_ArchiveHasNoListItems(t *testing.T) {
	ctx := context.Background()
	clock := time.Date(2026, 1, 30, 9, 0, 0, 0, time.UTC)
	s, _ := newService(t, &clock)
	for _, id := range []string{"a", "b", "c", "d"} {
		s.StartSession(ctx, &recall.Session{ID: id})
		s.EndSession(ctx, recall.SessionEnd{ID: id, Summary: "Did:\n- one\n- two", Learned: "- a lesson"})
		clock = clock.Add(time.Hour)
	}
	archive := read(t, filepath.Join(s.Dir, "archive", "2026-01.md"))
	for _, line := range strings.Split(archive, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "- ") {
			t.Errorf("list item in the archive: %q\n%s", line, archive)
		}
	}
}
