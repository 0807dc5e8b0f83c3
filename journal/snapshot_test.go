package journal_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/journal"
	"github.com/recall-mem/recall/pack"
)

// countingSessions counts the reads of all sessions and pins.
type countingSessions struct {
	recall.SessionStore
	reads int
}

func (c *countingSessions) FindSessions(ctx context.Context, limit int) ([]*recall.Session, error) {
	c.reads++
	return c.SessionStore.FindSessions(ctx, limit)
}

type countingPins struct {
	recall.MemoryService
	reads int
}

func (c *countingPins) FindMemories(ctx context.Context, f recall.MemoryFilter) ([]*recall.Memory, int, error) {
	if f.Pinned != nil {
		c.reads++
	}
	return c.MemoryService.FindMemories(ctx, f)
}

// A session start reads the sessions and pins twice (to check the views
// before the start, to write them after it), and its context's pinned
// core and recent sessions come from the second read: the same sections
// as a context that reads them itself.
func TestService_StartReadsSessionsAndPinsTwice(t *testing.T) {
	ctx := context.Background()
	clock := time.Date(2026, 1, 30, 9, 0, 0, 0, time.UTC)
	s, _ := newService(t, &clock)
	for i := 1; i <= 4; i++ {
		id := fmt.Sprintf("s%d", i)
		if _, err := s.StartSession(ctx, &recall.Session{ID: id}); err != nil {
			t.Fatal(err)
		}
		end := recall.SessionEnd{ID: id, Summary: fmt.Sprintf("Did thing %d", i), Learned: "lesson " + id, Pin: fmt.Sprintf("Rule %d", i)}
		if _, err := s.EndSession(ctx, end); err != nil {
			t.Fatal(err)
		}
		clock = clock.Add(time.Hour)
	}
	store := &countingSessions{SessionStore: s.Store}
	mem := &countingPins{MemoryService: s.Memories}
	s.Store, s.Memories = store, mem
	heartbeat := pack.Section{Name: "heartbeat", Title: "recall heartbeat", Fetch: s.Findings}
	pinned := pack.Pinned(mem)
	pinned.Fetch = s.PinnedCore(pinned.Fetch)
	s.Context = pack.NewBuilder(heartbeat, pinned, pack.Section{Name: "sessions", Title: "Recent sessions", Fetch: s.RecentSessions})

	rep, err := s.StartSession(ctx, &recall.Session{ID: "s5"})
	if err != nil {
		t.Fatal(err)
	}
	if store.reads != 2 || mem.reads != 2 {
		t.Errorf("a session start read the sessions %d times and the pins %d times; want 2 each", store.reads, mem.reads)
	}
	reading := pack.NewBuilder(heartbeat, pack.Pinned(mem), pack.Section{Name: "sessions", Title: "Recent sessions", Fetch: journal.RecentSessions(store)})
	want, err := reading.BuildContext(ctx, recall.ContextRequest{Budget: s.Budget, Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(want.Text, "## Pinned core\n- Rule 4") || !strings.Contains(want.Text, "## Recent sessions\n- ") {
		t.Fatalf("the context read from the store lacks pins or sessions:\n%s", want.Text)
	}
	if rep.Context != want.Text {
		t.Errorf("context:\n%s\nwant, as read from the store:\n%s", rep.Context, want.Text)
	}
	// Outside a session start the sections read the store.
	store.reads, mem.reads = 0, 0
	if _, err := s.Context.BuildContext(ctx, recall.ContextRequest{Budget: s.Budget, Now: clock}); err != nil {
		t.Fatal(err)
	}
	if store.reads != 1 || mem.reads != 1 {
		t.Errorf("a context outside a session start read the sessions %d times and the pins %d times; want 1 each", store.reads, mem.reads)
	}
}
