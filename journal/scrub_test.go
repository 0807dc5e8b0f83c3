package journal_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/sqlite"
)

// TestService_Scrub purges a secret from an archived session's summary
// and rewrites the views: the append-only SUMMARY.md and the archive lose
// it at once, sessions still in the store are rendered from it, and the
// other sessions' entries stay as they were.
func TestService_Scrub(t *testing.T) {
	ctx := context.Background()
	const secret = "Zq7Purge8Secret9x4"
	clock := time.Date(2026, 1, 30, 9, 0, 0, 0, time.UTC)
	s, db := newService(t, &clock)
	for _, x := range []struct{ id, summary, learned string }{
		{"a", "tidied the docs", ""},
		{"b", "rotated " + secret, ""},
		{"c", "fixed the build", "keep " + secret + " out of logs"},
		{"d", "wrote tests", ""},
		{"e", "released", ""},
		{"f", "planned", ""},
	} {
		if _, err := s.StartSession(ctx, &recall.Session{ID: x.id}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.EndSession(ctx, recall.SessionEnd{ID: x.id, Summary: x.summary, Learned: x.learned}); err != nil {
			t.Fatal(err)
		}
		clock = clock.Add(time.Hour)
	}
	archive, summary := filepath.Join(s.Dir, "archive", "2026-01.md"), filepath.Join(s.Dir, "SUMMARY.md")
	if !strings.Contains(read(t, archive), secret) || !strings.Contains(read(t, summary), secret) {
		t.Fatal("the secret is not in the archive: the test proves nothing")
	}
	c := recall.PurgeCriteria{Search: secret}
	rep, err := sqlite.NewForgetService(db).Purge(ctx, c)
	if err != nil || rep.SessionTexts != 2 {
		t.Fatalf("purge %+v, %v: want the text of 2 sessions cleared", rep, err)
	}
	drop, err := sqlite.PurgeMatcher(c)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Scrub(ctx, drop); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{archive, summary, filepath.Join(s.Dir, "RECENT.md")} {
		text := read(t, path)
		if strings.Contains(text, secret) {
			t.Errorf("%s keeps the secret:\n%s", path, text)
		}
		if path != filepath.Join(s.Dir, "RECENT.md") && !strings.Contains(text, "tidied the docs") {
			t.Errorf("%s lost another session:\n%s", path, text)
		}
	}
	if got := read(t, archive); !strings.Contains(got, "— c\n") || !strings.Contains(got, "fixed the build") {
		t.Errorf("session c, still in the store, is not rendered from it:\n%s", got)
	}
	drift, err := s.Drift(ctx)
	if err != nil || len(drift) != 0 {
		t.Errorf("views drift from the store after the scrub: %v, %v", drift, err)
	}
}
