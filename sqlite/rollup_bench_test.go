package sqlite_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/sqlite"
)

// BenchmarkRollupService_RunRollups rolls up 90 days of observations (a
// keyed preference, a repeated fact and 20 commands a day) in one run and
// reports buckets per second.
func BenchmarkRollupService_RunRollups(b *testing.B) {
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		db := MustOpenDB(b)
		var obs []*recall.Observation
		for d := 0; d < 90; d++ {
			at := day0.AddDate(0, 0, d)
			obs = append(obs, &recall.Observation{At: at.Add(9 * time.Hour), Type: "preference", Key: "editor", Content: fmt.Sprintf("uses editor %d", d/30)},
				&recall.Observation{At: at.Add(10 * time.Hour), Type: "fact", Key: "city", Content: "lives in Berlin"})
			for j := 0; j < 20; j++ {
				obs = append(obs, &recall.Observation{At: at.Add(time.Duration(8*60+j*37) * time.Minute), Type: "command", Content: fmt.Sprintf("go test ./pkg%d", j%7)})
			}
		}
		if err := sqlite.NewObservationService(db).RecordObservations(ctx, obs); err != nil {
			b.Fatal(err)
		}
		s := newRollups(b, db)
		b.StartTimer()
		t0 := time.Now()
		rep := mustRun(b, s, recall.RollupRun{Now: day0.AddDate(0, 0, 120)})
		n := 0
		for _, c := range rep.Buckets {
			n += c
		}
		b.ReportMetric(float64(n)/time.Since(t0).Seconds(), "buckets/s")
	}
}
