package engine

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/recall-mem/recall"
)

// queued waits until g has n waiters.
func queued(t *testing.T, g *searchGate, n int) {
	t.Helper()
	for range 100000 {
		g.mu.Lock()
		k := len(g.queue)
		g.mu.Unlock()
		if k == n {
			return
		}
		time.Sleep(50 * time.Microsecond)
	}
	t.Fatalf("the gate never had %d waiters", n)
}

// enterLater calls g.enter(ctx) on a goroutine and waits until it is
// the gate's waiting-th waiter; its result comes on the channel.
func enterLater(t *testing.T, g *searchGate, ctx context.Context, waiting int) <-chan error {
	t.Helper()
	got := make(chan error, 1)
	go func() { got <- g.enter(ctx) }()
	queued(t, g, waiting)
	return got
}

// within returns what c sends, failing the test if nothing comes within
// a minute: a broken gate fails instead of hanging the run.
func within(t *testing.T, c <-chan error, what string) error {
	t.Helper()
	select {
	case err := <-c:
		return err
	case <-time.After(time.Minute):
		t.Fatalf("waited a minute for %s", what)
		return nil
	}
}

// waitAll waits for wg as within waits for a channel.
func waitAll(t *testing.T, wg *sync.WaitGroup, what string) {
	t.Helper()
	done := make(chan error)
	go func() {
		wg.Wait()
		close(done)
	}()
	_ = within(t, done, what)
}

// wantState fails unless g has free slots and waiting waiters.
func wantState(t *testing.T, g *searchGate, free, waiting int) {
	t.Helper()
	if f, w := g.state(); f != free || w != waiting {
		t.Fatalf("%d free, %d waiting; want %d, %d", f, w, free, waiting)
	}
}

// state returns g's free slots and waiters.
func (g *searchGate) state() (free, waiting int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.free, len(g.queue)
}

func TestSearchGate_AdmitsInArrivalOrder(t *testing.T) {
	ctx := context.Background()
	g := newSearchGate(1)
	if err := g.enter(ctx); err != nil {
		t.Fatal(err)
	}
	const n = 40
	var mu sync.Mutex
	var order []int
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			if err := g.enter(ctx); err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			order = append(order, i)
			mu.Unlock()
			g.leave()
		})
		queued(t, g, i+1) // i arrives before i+1
	}
	g.leave()
	waitAll(t, &wg, "the admitted waiters")
	if len(order) != n {
		t.Fatalf("%d of %d waiters admitted", len(order), n)
	}
	for i, w := range order {
		if w != i {
			t.Fatalf("admitted in the order %v, want arrival order", order)
		}
	}
	wantState(t, g, 1, 0)
}

func TestSearchGate_CancelledWaiterLeavesTheQueue(t *testing.T) {
	g := newSearchGate(1)
	if err := g.enter(context.Background()); err != nil {
		t.Fatal(err)
	}
	gone, cancel := context.WithCancel(context.Background())
	first := enterLater(t, g, gone, 1)
	second := enterLater(t, g, context.Background(), 2)
	cancel()
	if err := within(t, first, "the cancelled waiter"); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled waiter's enter = %v, want context.Canceled", err)
	}
	wantState(t, g, 0, 1)
	g.leave() // to the second waiter, not the one that left
	if err := within(t, second, "the second waiter"); err != nil {
		t.Fatal(err)
	}
	g.leave()
	wantState(t, g, 1, 0)
	done, stop := context.WithCancel(context.Background())
	stop()
	if err := g.enter(done); err != nil {
		t.Fatalf("a free slot refused to an ended context: %v", err) // as a search would run
	}
	g.leave()
}

// TestSearchGate_CancelRacingAdmission cancels waiters while slots are
// given back: a slot handed to a waiter that gives up passes on, so none
// is lost or made.
func TestSearchGate_CancelRacingAdmission(t *testing.T) {
	g := newSearchGate(1)
	for range 300 {
		if err := g.enter(context.Background()); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		got := enterLater(t, g, ctx, 1)
		go cancel()
		g.leave()
		if err := within(t, got, "the racing waiter"); err == nil {
			g.leave()
		}
		wantState(t, g, 1, 0)
	}
}

// counting is a searcher that counts the searches in it at once and can
// search again inside a search.
type counting struct {
	in, most atomic.Int64
	inner    recall.Searcher // searched inside each search when set
}

func (c *counting) Search(ctx context.Context, q recall.SearchQuery) ([]*recall.SearchHit, error) {
	n := c.in.Add(1)
	defer c.in.Add(-1)
	for {
		m := c.most.Load()
		if n <= m || c.most.CompareAndSwap(m, n) {
			break
		}
	}
	time.Sleep(100 * time.Microsecond) // let others pile up
	if c.inner != nil {
		return c.inner.Search(ctx, q)
	}
	return []*recall.SearchHit{{Memory: &recall.Memory{ID: q.Text}}}, nil
}

func TestGatedSearcher_LimitHolds(t *testing.T) {
	base := &counting{}
	s := gatedSearcher{gate: newSearchGate(3), base: base}
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			for range 10 {
				hits, err := s.Search(context.Background(), recall.SearchQuery{Text: "q"})
				if err != nil || len(hits) != 1 {
					t.Errorf("search %d: %v, %v", i, hits, err)
				}
			}
		})
	}
	waitAll(t, &wg, "the searches")
	if m := base.most.Load(); m > 3 || m < 1 {
		t.Fatalf("%d searches ran at once through a gate of 3", m)
	}
	wantState(t, s.gate, 3, 0)
}

// TestGatedSearcher_NestedSearchTakesNoSecondSlot searches through the
// gate inside a gated search, with every slot held by such searches: a
// nested search that waited for a slot would wait for ever.
func TestGatedSearcher_NestedSearchTakesNoSecondSlot(t *testing.T) {
	g := newSearchGate(2)
	inner := &counting{}
	outer := &counting{inner: gatedSearcher{gate: g, base: inner}}
	s := gatedSearcher{gate: g, base: outer}
	done := make(chan struct{})
	go func() {
		defer close(done)
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				if hits, err := s.Search(context.Background(), recall.SearchQuery{Text: "nested"}); err != nil || len(hits) != 1 {
					t.Errorf("nested search: %v, %v", hits, err)
				}
			})
		}
		wg.Wait()
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("nested searches deadlocked on the gate")
	}
	if m := outer.most.Load(); m > 2 {
		t.Fatalf("%d outer searches at once through a gate of 2", m)
	}
}

func TestGatedSearcher_QueuedSearchEndsWithItsContext(t *testing.T) {
	base := &counting{}
	s := gatedSearcher{gate: newSearchGate(1), base: base}
	if err := s.gate.enter(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan error, 1)
	go func() {
		_, err := s.Search(ctx, recall.SearchQuery{Text: "q"})
		got <- err
	}()
	queued(t, s.gate, 1)
	cancel()
	if err := within(t, got, "the queued search"); !errors.Is(err, context.Canceled) {
		t.Fatalf("queued search = %v, want context.Canceled", err)
	}
	if base.most.Load() != 0 {
		t.Fatal("a search whose caller left ran anyway")
	}
	s.gate.leave()
	wantState(t, s.gate, 1, 0)
}

// BenchmarkGatedSearcher_Free is what the gate adds to a search that
// finds a slot free: a server's search with nothing queued.
func BenchmarkGatedSearcher_Free(b *testing.B) {
	s := gatedSearcher{gate: newSearchGate(2), base: nothing{}}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Search(ctx, recall.SearchQuery{}); err != nil {
			b.Fatal(err)
		}
	}
}

type nothing struct{}

func (nothing) Search(context.Context, recall.SearchQuery) ([]*recall.SearchHit, error) {
	return nil, nil
}

// TestSearchGate_AdmittedWhileGivingUp hands the slot to a waiter at the
// moment its context has ended and it has not yet left the queue: it
// returns its context's error and passes the slot on, so the next waiter
// runs. Fails when the giving-up waiter keeps the slot it never uses.
func TestSearchGate_AdmittedWhileGivingUp(t *testing.T) {
	g := newSearchGate(1)
	if err := g.enter(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	first := enterLater(t, g, ctx, 1)
	next := enterLater(t, g, context.Background(), 2)
	g.givingUp = g.leave // the holder's hand-over, to the first waiter
	cancel()
	if err := within(t, first, "the giving-up waiter"); !errors.Is(err, context.Canceled) {
		t.Fatalf("a waiter admitted while giving up: %v, want context.Canceled", err)
	}
	if err := within(t, next, "the next waiter"); err != nil {
		t.Fatal(err)
	}
	g.leave()
	wantState(t, g, 1, 0)
}

// TestSearchGate_CancelledMiddleWaiter cancels the second of three
// waiters: it leaves, and the first and third are admitted in turn.
// Fails when a waiter that gives up takes another one's place in line.
func TestSearchGate_CancelledMiddleWaiter(t *testing.T) {
	g := newSearchGate(1)
	if err := g.enter(context.Background()); err != nil {
		t.Fatal(err)
	}
	first := enterLater(t, g, context.Background(), 1)
	ctx, cancel := context.WithCancel(context.Background())
	middle := enterLater(t, g, ctx, 2)
	third := enterLater(t, g, context.Background(), 3)
	cancel()
	if err := within(t, middle, "the cancelled waiter"); !errors.Is(err, context.Canceled) {
		t.Fatalf("the cancelled waiter's enter = %v, want context.Canceled", err)
	}
	wantState(t, g, 0, 2)
	g.leave()
	if err := within(t, first, "the first waiter"); err != nil {
		t.Fatal(err)
	}
	g.leave()
	if err := within(t, third, "the third waiter"); err != nil {
		t.Fatal(err)
	}
	g.leave()
	wantState(t, g, 1, 0)
}

// panics is a searcher whose every search panics.
type panics struct{}

func (panics) Search(context.Context, recall.SearchQuery) ([]*recall.SearchHit, error) {
	panic("search failed")
}

// TestGatedSearcher_PanicGivesTheSlotBack: a search that panics (a
// server recovers and answers 500) still gives its slot back.
func TestGatedSearcher_PanicGivesTheSlotBack(t *testing.T) {
	s := gatedSearcher{gate: newSearchGate(1), base: panics{}}
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("the search did not panic")
			}
		}()
		_, _ = s.Search(context.Background(), recall.SearchQuery{Text: "q"})
	}()
	wantState(t, s.gate, 1, 0)
}
