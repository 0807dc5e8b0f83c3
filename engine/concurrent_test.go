package engine_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/recall-mem/recall"
)

// TestEngine_ConcurrentWorkspaceUseCases runs the workspace use cases a
// server's requests run at once on one open engine (run with -race:
// OpenWorkspace used to set a field of the shared engine on every call).
func TestEngine_ConcurrentWorkspaceUseCases(t *testing.T) {
	ctx := context.Background()
	e := openEngine(t)
	for i := range 4 {
		if _, err := e.Put(ctx, &recall.Memory{Key: fmt.Sprintf("k%d", i), Tier: recall.TierWorking, Content: fmt.Sprintf("Memory number %d.", i)}); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, 12)
	for i := range 4 {
		wg.Go(func() {
			_, err := e.PlanSyncProject(ctx, "", e.Now())
			errs <- err
		})
		wg.Go(func() {
			_, err := e.SyncProject(ctx, "", e.Now())
			errs <- err
		})
		wg.Go(func() {
			_, err := e.Pin(ctx, "", fmt.Sprintf("k%d", i), e.Now())
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	for i := range 4 {
		if m, err := e.Get(ctx, fmt.Sprintf("k%d", i), ""); err != nil || !m.Pinned {
			t.Errorf("k%d: %+v, %v", i, m, err)
		}
	}
}
