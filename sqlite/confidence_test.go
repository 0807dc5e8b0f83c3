package sqlite_test

import (
	"context"
	"math"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/sqlite"
)

// A NaN confidence (frontmatter "confidence: .nan") passed the range check
// and failed in SQLite as a misleading id conflict.
func TestMemoryService_NaNConfidence(t *testing.T) {
	svc := sqlite.NewMemoryService(MustOpenDB(t))
	for _, c := range []float64{math.NaN(), math.Inf(1), -0.1} {
		_, err := svc.PutMemory(context.Background(), &recall.Memory{Content: "x", Confidence: c})
		if recall.ErrorCode(err) != recall.EINVALID {
			t.Errorf("confidence %v: err %v, want %s", c, err, recall.EINVALID)
		}
	}
}
