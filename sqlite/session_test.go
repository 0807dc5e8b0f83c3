package sqlite_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/sqlite"
)

func TestSessionService_StartSession(t *testing.T) {
	ctx := context.Background()
	t.Run("EvictsBeyondHot", func(t *testing.T) {
		db := MustOpenDB(t)
		s := sqlite.NewSessionService(db)
		s.HotSessions = 2
		base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		for i := 0; i < 4; i++ {
			rep, err := s.StartSession(ctx, &recall.Session{ID: fmt.Sprintf("s%d", i), StartedAt: base.Add(time.Duration(i) * time.Hour)})
			if err != nil {
				t.Fatal(err)
			}
			if i == 3 && (len(rep.Evicted) != 1 || rep.Evicted[0] != "s0") {
				t.Errorf("start s3 evicted %v, want [s0]", rep.Evicted)
			}
		}
		all, err := s.FindSessions(ctx, 0)
		if err != nil {
			t.Fatal(err)
		}
		var states []string
		for _, x := range all {
			states = append(states, x.ID+"="+x.State)
		}
		if got, want := strings.Join(states, " "), "s3=hot s2=hot s1=hot s0=cold"; got != want {
			t.Errorf("sessions %s, want %s", got, want)
		}
	})
	t.Run("ResumeKeepsStart", func(t *testing.T) {
		s := sqlite.NewSessionService(MustOpenDB(t))
		first := time.Date(2025, 12, 1, 0, 0, 0, 0, time.UTC)
		if _, err := s.StartSession(ctx, &recall.Session{ID: "a", StartedAt: first, Project: "p"}); err != nil {
			t.Fatal(err)
		}
		rep, err := s.StartSession(ctx, &recall.Session{ID: "a"})
		if err != nil {
			t.Fatal(err)
		}
		if !rep.Session.StartedAt.Equal(first) || rep.Session.Project != "p" {
			t.Errorf("resumed session %+v", rep.Session)
		}
	})
	t.Run("FlagsStaleCore", func(t *testing.T) {
		db := MustOpenDB(t)
		if _, err := sqlite.NewMemoryService(db).PutMemory(ctx, &recall.Memory{Title: "Identity", Content: "x", Pinned: true}); err != nil {
			t.Fatal(err)
		}
		s := sqlite.NewSessionService(db)
		s.StaleAfter = time.Hour
		later := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
		db.Now = func() time.Time { return later }
		rep, err := s.StartSession(ctx, &recall.Session{})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Problems) != 1 || !strings.Contains(rep.Problems[0], `"Identity"`) || rep.Session.ID == "" {
			t.Errorf("report %+v", rep)
		}
	})
}

func TestSessionService_EndSession(t *testing.T) {
	ctx := context.Background()
	db := MustOpenDB(t)
	s := sqlite.NewSessionService(db)
	if _, err := s.StartSession(ctx, &recall.Session{ID: "a"}); err != nil {
		t.Fatal(err)
	}
	t.Run("OK", func(t *testing.T) {
		got, err := s.EndSession(ctx, recall.SessionEnd{ID: "a", Summary: "Fixed login", Learned: "Sessions expire", Pin: "Login rule"})
		if err != nil {
			t.Fatal(err)
		}
		if got.EndedAt == nil || got.Summary != "Fixed login" || got.Learned != "Sessions expire" {
			t.Errorf("got %+v", got)
		}
		pinned := true
		ms, _, err := sqlite.NewMemoryService(db).FindMemories(ctx, recall.MemoryFilter{Pinned: &pinned})
		if err != nil || len(ms) != 1 || ms[0].Title != "Login rule" || ms[0].Collection != sqlite.PinCollection {
			t.Errorf("pins %v %v", ms, err)
		}
	})
	t.Run("ErrPinTaken", func(t *testing.T) {
		_, err := s.EndSession(ctx, recall.SessionEnd{ID: "a", Summary: "Again", Pin: "login RULE"})
		if recall.ErrorCode(err) != recall.ECONFLICT {
			t.Fatalf("err = %v, want ECONFLICT", err)
		}
		all, _ := s.FindSessions(ctx, 1)
		if all[0].Summary != "Fixed login" {
			t.Errorf("a refused pin changed the summary: %q", all[0].Summary)
		}
	})
	t.Run("NeverStarted", func(t *testing.T) {
		got, err := s.EndSession(ctx, recall.SessionEnd{ID: "nope", Summary: "kept", Learned: "also kept"})
		if err != nil {
			t.Fatal(err)
		}
		if !got.Implicit || got.Summary != "kept" || got.Learned != "also kept" || got.EndedAt == nil {
			t.Errorf("never-started session recorded as %+v", got)
		}
	})
}
