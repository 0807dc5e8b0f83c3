package httpapi_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/httpapi"
)

// TestServer_ConcurrentRoutes hits the engine's routes from several
// clients at once, as agents sharing one `recall serve` do: every request
// succeeds, and each client's pins and unpins of its own memory land. Run
// it with -race: the routes share one engine.
func TestServer_ConcurrentRoutes(t *testing.T) {
	eng := openEngine(t)
	ts, _ := newServer(t, &httpapi.Server{Engine: eng, Loopback: true})
	const clients, rounds = 6, 3
	for c := range clients {
		send(t, "POST", ts.URL+"/v1/memories", fmt.Sprintf(`{"key":"mem-%d","tier":"working","content":"Client %d keeps this memory."}`, c, c), nil)
	}
	send(t, "POST", ts.URL+"/v1/sync", "", nil)

	var mu sync.Mutex
	var failures []string
	var wg sync.WaitGroup
	for c := range clients {
		wg.Go(func() {
			key := fmt.Sprintf("mem-%d", c)
			reqs := [][3]string{
				{"POST", "/v1/memories", fmt.Sprintf(`{"content":"Note from client %d."}`, c)},
				{"PATCH", "/v1/memories/" + key, fmt.Sprintf(`{"content":"Client %d edited this memory."}`, c)},
				{"GET", "/v1/search?q=client", ""},
				{"POST", "/v1/context", `{"query":"client","budget":300}`},
				{"POST", "/v1/sessions", fmt.Sprintf(`{"agent":"client-%d"}`, c)},
				{"GET", "/v1/sessions", ""},
				{"GET", "/v1/observations?q=client", ""},
				{"GET", "/v1/memories/" + key + "/versions", ""},
				{"GET", "/v1/memories/" + key + "/diff", ""},
				{"POST", "/v1/memories/" + key + "/pin", ""},
				{"POST", "/v1/memories/" + key + "/unpin", ""},
				{"POST", "/v1/memories/" + key + "/snooze", `{"days":3}`},
				{"POST", "/v1/memories/" + key + "/review", ""},
				{"GET", "/v1/sync/plan", ""},
				{"POST", "/v1/sync", ""},
				{"GET", "/v1/maintain/plan", ""},
				{"POST", "/v1/observations", fmt.Sprintf(`{"observations":[{"type":"note","content":"client %d was here"}]}`, c)},
				{"POST", "/v1/purge", `{"search":"nowhere","dry_run":true}`},
				{"POST", "/v1/sweep", `{"dry_run":true}`},
				{"POST", "/v1/rollups/run", `{"dry_run":true}`},
				{"GET", "/v1/tiers", ""},
				{"GET", "/v1/stats", ""},
				{"GET", "/v1/reindex/status", ""},
				{"GET", "/v1/export", ""},
				{"GET", "/v1/doctor", ""},
				{"POST", "/v1/backup", ""},
			}
			for range rounds {
				for _, r := range reqs {
					status, body, err := request(r[0], ts.URL+r[1], r[2])
					if err != nil || status >= 300 {
						mu.Lock()
						failures = append(failures, fmt.Sprintf("client %d: %s %s: %d %v %.300s", c, r[0], r[1], status, err, body))
						mu.Unlock()
					}
				}
			}
		})
	}
	wg.Wait()
	for _, f := range failures {
		t.Error(f)
	}
	for c := range clients {
		var m recall.Memory
		send(t, "GET", ts.URL+fmt.Sprintf("/v1/memories/mem-%d", c), "", &m)
		if m.Pinned || m.SnoozedUntil == nil || m.Content != fmt.Sprintf("Client %d edited this memory.", c) {
			t.Errorf("mem-%d after the rounds: pinned %v, snoozed %v, content %q", c, m.Pinned, m.SnoozedUntil, m.Content)
		}
	}
	var st recall.StoreStats
	send(t, "GET", ts.URL+"/v1/stats", "", &st)
	if want := clients + clients*rounds; st.Memories != want || st.Observations != clients*rounds {
		t.Errorf("stats after the rounds: %d memories, %d observations; want %d and %d", st.Memories, st.Observations, want, clients*rounds)
	}
}
