package sqlite

import (
	"math/rand/v2"
	"runtime"
	"testing"
)

// Scans of an unchanged index take no sample anew, whatever the number
// of workers: each worker's share finds its sample kept (a bound of 16
// samples made a scan on 17 workers or more take some again every time).
func TestPrefilter_SamplesKeptOnManyWorkers(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	x, _ := randIndex(rng, 512, 60000)
	x.buildCodes()
	q := randVec(rng, 512)
	for _, procs := range []int{2, 17, 32} {
		func() {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			x.samples.drop()
			x.find(q, 100, 2000)
			kept := map[*codeSample]bool{}
			for _, s := range x.samples.list {
				kept[s] = true
			}
			for range 3 {
				x.find(q, 100, 2000)
			}
			for _, s := range x.samples.list {
				if !kept[s] {
					t.Fatalf("GOMAXPROCS %d: a scan of an unchanged index took a sample again", procs)
				}
			}
		}()
	}
}
