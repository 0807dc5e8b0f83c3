package sqlite_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/sqlite"
)

// BenchmarkObservationService_Record measures batched recording: one
// transaction per 1,000 observations of a session, with the full-text
// index.
func BenchmarkObservationService_Record(b *testing.B) {
	s := sqlite.NewObservationService(MustOpenDB(b))
	batch := make([]*recall.Observation, 1000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := range batch {
			n := i*len(batch) + j
			batch[j] = &recall.Observation{At: day0.Add(time.Duration(n) * time.Second), Type: recall.ObsCommand, Session: "s",
				Content: fmt.Sprintf("go test ./pkg%d -run Test%d", n%13, n%101)}
		}
		if err := s.RecordObservations(context.Background(), batch); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*len(batch))/b.Elapsed().Seconds(), "observations/s")
}
