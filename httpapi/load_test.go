package httpapi_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/httpapi"
)

// TestServer_Load drives a real server on loopback with concurrent writers
// and readers and checks that no request fails and no write is lost. It
// logs throughput and latency (run with -v to see them); it asserts no
// timing.
func TestServer_Load(t *testing.T) {
	if testing.Short() {
		t.Skip("load test: skipped with -short")
	}
	const writers, readers, total = 8, 8, loadRequests
	perClient := total / (writers + readers)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	_, c := newServer(t, &httpapi.Server{Engine: openEngine(t), Loopback: true, Token: "tok"})
	// Something for the readers to find from the first request on.
	if _, err := c.PutMemory(ctx, &recall.Memory{Key: "seed", Content: "deploy notes for the load test"}); err != nil {
		t.Fatal(err)
	}

	var mu sync.Mutex
	var writeLat, readLat []time.Duration
	var errs []error
	var wg sync.WaitGroup
	record := func(lat *[]time.Duration, d time.Duration, err error) {
		mu.Lock()
		defer mu.Unlock()
		*lat = append(*lat, d)
		if err != nil {
			errs = append(errs, err)
		}
	}
	start := time.Now()
	for w := range writers {
		wg.Go(func() {
			for i := range perClient {
				t0 := time.Now()
				_, err := c.PutMemory(ctx, &recall.Memory{Key: fmt.Sprintf("w%d-%d", w, i), Content: fmt.Sprintf("deploy note %d from writer %d", i, w), Tags: []string{"load"}})
				record(&writeLat, time.Since(t0), err)
			}
		})
	}
	for r := range readers {
		wg.Go(func() {
			for i := range perClient {
				t0 := time.Now()
				var err error
				switch (r + i) % 3 {
				case 0:
					_, err = c.Search(ctx, recall.SearchQuery{Text: "deploy note", Limit: 10})
				case 1:
					_, _, err = c.FindMemories(ctx, recall.MemoryFilter{Fields: map[string][]string{"tags": {"load"}}, Limit: 20})
				default:
					_, err = c.FindMemory(ctx, "seed", "")
				}
				record(&readLat, time.Since(t0), err)
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	if len(errs) > 0 {
		t.Fatalf("%d of %d requests failed; first: %v", len(errs), total, errs[0])
	}
	_, stored, err := c.FindMemories(ctx, recall.MemoryFilter{Fields: map[string][]string{"tags": {"load"}}})
	if err != nil || stored != writers*perClient {
		t.Fatalf("stored %d memories, want %d (err %v): writes were lost", stored, writers*perClient, err)
	}
	all := append(slices.Clone(writeLat), readLat...)
	t.Logf("%d requests (%d writers, %d readers) in %v: %.0f requests/s; p50 %v, p95 %v (writes p95 %v, reads p95 %v)",
		len(all), writers, readers, elapsed.Round(time.Millisecond), float64(len(all))/elapsed.Seconds(),
		percentile(all, 50), percentile(all, 95), percentile(writeLat, 95), percentile(readLat, 95))
}

// percentile returns the p-th percentile of ds (nearest rank).
func percentile(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100
	return s[max(i-1, 0)].Round(10 * time.Microsecond)
}
