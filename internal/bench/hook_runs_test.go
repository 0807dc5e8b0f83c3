package bench

import (
	"encoding/json"
	"slices"
	"testing"
	"time"
)

// The report keeps every run's wall and CPU time in the order run (where
// a tail came from: the first runs, or one in the middle) beside the
// quantiles, which sort them.
func TestSummarise_KeepsEachRunInOrder(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		var ds []time.Duration
		for _, x := range v {
			ds = append(ds, time.Duration(x)*time.Millisecond)
		}
		return ds
	}
	l := summarise(ms(30, 10, 20, 12), ms(18, 9, 11, 10))
	if !slices.Equal(l.WallMS, []float64{30, 10, 20, 12}) || !slices.Equal(l.CPUMS, []float64{18, 9, 11, 10}) {
		t.Fatalf("runs: wall %v, cpu %v; want them in the order run", l.WallMS, l.CPUMS)
	}
	if l.P50 != 20 || l.Max != 30 || l.CPUP50 != 11 {
		t.Fatalf("quantiles: %+v", l)
	}
	b, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if _, ok := back["wall_ms"]; !ok {
		t.Fatalf("the JSON has no wall_ms: %s", b)
	}
	if _, ok := back["cpu_ms"]; !ok {
		t.Fatalf("the JSON has no cpu_ms: %s", b)
	}
}
