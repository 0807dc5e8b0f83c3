package engine

import (
	"context"
	"fmt"
	"os"

	"github.com/recall-mem/recall"
)

// scrubViews brings the markdown views in line with the store after a
// purge: at once, not at the next session start.
func (e *Engine) scrubViews(ctx context.Context, c recall.PurgeCriteria, rep *recall.PurgeReport) error {
	if rep.Matched()+rep.Copies()+rep.Sessions == 0 {
		return nil
	}
	if _, err := os.Stat(e.memoryDir()); os.IsNotExist(err) {
		return nil
	}
	drop, err := e.parts.Backend.PurgeMatcher(c)
	if err != nil {
		return err
	}
	if err := e.Sessions().Scrub(ctx, drop); err != nil {
		return fmt.Errorf("the purge is done but the markdown views in %s were not rewritten (run it again): %w", e.memoryDir(), err)
	}
	return nil
}

// forgetter is the store's purge, sweep and stats service.
func (e *Engine) forgetter() recall.ForgetStore { return e.Store.Forgetting() }
