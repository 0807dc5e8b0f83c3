package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/recall-mem/recall"
)

// asOfSearcher returns a searcher over the store's memory as it was at t:
// the snapshots of that moment are loaded into a temporary store, so the
// past is ranked by exactly the same code (full text, neighbours, time
// words) as the present. Vectors are left out: the past text is not
// embedded. The release function removes the temporary store.
func (e *Engine) asOfSearcher(hist recall.HistoryReader, cfg *Config) func(ctx context.Context, t time.Time) (recall.Searcher, func(), error) {
	return func(ctx context.Context, t time.Time) (recall.Searcher, func(), error) {
		ms, err := hist.MemoriesAsOf(ctx, t)
		if err != nil {
			return nil, nil, err
		}
		// Store order is what neighbours follow; keep the original order.
		sort.SliceStable(ms, func(i, j int) bool { return ms[i].CreatedAt.Before(ms[j].CreatedAt) })
		dir, err := os.MkdirTemp("", "recall-asof-")
		if err != nil {
			return nil, nil, err
		}
		release := func() { os.RemoveAll(dir) }
		st, err := e.parts.Backend.OpenStore(filepath.Join(dir, DBFile), recall.StoreOptions{})
		if err != nil {
			release()
			return nil, nil, err
		}
		release = func() { st.Close(); os.RemoveAll(dir) }
		mem := st.Memories()
		if len(ms) > 0 {
			if _, err := mem.ImportMemories(ctx, ms); err != nil {
				release()
				return nil, nil, fmt.Errorf("load memory as of %s: %w", t.Format(time.RFC3339), err)
			}
		}
		s, _ := e.SearcherFor(mem, nil, nil, cfg)
		return s, release, nil
	}
}
