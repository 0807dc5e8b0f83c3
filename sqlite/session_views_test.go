package sqlite_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/sqlite"
)

// FindViewSessions returns, in FindSessions' order, the sessions that
// are not cold, the newest n of all, and those asked for, and nothing
// else: its first n are FindSessions(n). A session resumed long after it
// began is hot although older than the newest n.
func TestSessionService_FindViewSessions(t *testing.T) {
	ctx := context.Background()
	db := MustOpenDB(t)
	s := sqlite.NewSessionService(db)
	s.HotSessions = 2
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 30 {
		if _, err := s.StartSession(ctx, &recall.Session{ID: fmt.Sprintf("s%02d", i), StartedAt: base.Add(time.Duration(i) * time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
	// An old session resumed: hot again, with its first start time.
	if _, err := s.StartSession(ctx, &recall.Session{ID: "s03"}); err != nil {
		t.Fatal(err)
	}
	all, err := s.FindSessions(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	const newest = 10
	also := []string{"s01", "s15"}
	got, err := s.FindViewSessions(ctx, newest, also)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for i, x := range all {
		if i < newest || x.State != "cold" || x.ID == also[0] || x.ID == also[1] {
			want = append(want, fmt.Sprintf("%s %s %d", x.ID, x.State, x.StartedAt.UnixMilli()))
		}
	}
	var ids []string
	for _, x := range got {
		ids = append(ids, fmt.Sprintf("%s %s %d", x.ID, x.State, x.StartedAt.UnixMilli()))
	}
	if fmt.Sprint(ids) != fmt.Sprint(want) {
		t.Errorf("view sessions:\n%v\nwant:\n%v", ids, want)
	}
	if len(got) >= len(all) || len(want) != newest+3 {
		t.Errorf("%d view sessions of %d, want %d: the fixture should leave cold sessions out", len(got), len(all), newest+3)
	}
}
