package sqlitetest

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/sqlite"
)

// AssertRedacted reads every memory and observation back from the store
// itself, whatever interface wrote them, and fails if any holds secret or
// if none shows the redaction marker (the check would prove nothing).
func AssertRedacted(tb testing.TB, db *sqlite.DB, secret string) {
	tb.Helper()
	ctx := context.Background()
	ms, n, err := sqlite.NewMemoryService(db).FindMemories(ctx, recall.MemoryFilter{})
	if err != nil || n == 0 {
		tb.Fatalf("memories: %d, %v", n, err)
	}
	obs, k, err := sqlite.NewObservationService(db).FindObservations(ctx, recall.ObservationFilter{})
	if err != nil || k == 0 {
		tb.Fatalf("observations: %d, %v", k, err)
	}
	for _, v := range []any{ms, obs} {
		b, _ := json.Marshal(v)
		if strings.Contains(string(b), secret) {
			tb.Errorf("the store holds the secret: %s", b)
		}
		if !strings.Contains(string(b), "[REDACTED:") {
			tb.Errorf("nothing was redacted: %s", b)
		}
	}
}
