package forget_test

import (
	"strings"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/forget"
)

func TestAssess(t *testing.T) {
	const mb = 1 << 20
	off := forget.Policy(false, nil, 30)
	for _, tt := range []struct {
		name   string
		st     recall.StoreStats
		p      recall.RetentionPolicy
		advice string
	}{
		{"Small", recall.StoreStats{DBBytes: 2 * mb, Observations: 1000, ObservationsByType: map[string]int{"command": 500, "file_read": 500}, GrowthRows: 100}, off, "Retention not needed yet"},
		{"Large", recall.StoreStats{DBBytes: 150 * mb, Observations: 100}, off, "Retention is worth enabling"},
		{"Growing", recall.StoreStats{DBBytes: 20 * mb, Observations: 10_000, GrowthRows: 5000}, off, "within a year"},
		{"DominantTypeWithoutPeriod", recall.StoreStats{DBBytes: 5 * mb, Observations: 4000, ObservationsByType: map[string]int{"agent_thinking": 3000, "command": 1000}}, off, "agent_thinking makes up 75%"},
		{"On", recall.StoreStats{DBBytes: 150 * mb}, forget.Policy(true, nil, 30), "Retention is on: 10 observation types expire, the shortest file_read at 90 days"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			st := tt.st
			forget.Assess(&st, tt.p)
			if !strings.Contains(st.Advice, tt.advice) {
				t.Errorf("advice = %q, want it to contain %q", st.Advice, tt.advice)
			}
		})
	}
	t.Run("Projection", func(t *testing.T) {
		// 1,024 rows in 10 MiB: 10 KiB a row; 300 new rows in 30 days is
		// 3,000 KiB a month, 36,500 KiB a year on top of the 10 MiB.
		st := recall.StoreStats{DBBytes: 10 * mb, Observations: 1024, GrowthRows: 300}
		forget.Assess(&st, off)
		if st.GrowthBytes != 300*10*1024 {
			t.Errorf("growth = %d", st.GrowthBytes)
		}
		if want := int64(10*mb + 300*10*1024*365/30); st.ProjectedBytes != want {
			t.Errorf("projected = %d, want %d", st.ProjectedBytes, want)
		}
	})
}

func TestBytes(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1536: "1.5 KiB", 100 << 20: "100.0 MiB", 3 << 30: "3.0 GiB"} {
		if got := forget.Bytes(n); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", n, got, want)
		}
	}
}
