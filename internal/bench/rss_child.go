package bench

import (
	"os/exec"
	"strconv"
	"time"
)

// rssSampleEvery is how often a child's high-water mark is read while it runs.
const rssSampleEvery = 10 * time.Millisecond

// runPeakRSS runs cmd to completion and returns the child's own peak
// resident set size in bytes (0 where the system does not say).
//
// The child's rusage alone is not that figure on Linux: Go starts a child
// with vfork, so at exec the kernel folds the high-water mark of the
// parent's memory into the child's ru_maxrss, and a bench process holding
// a large store reports its own peak as the child's. The child's VmHWM in
// /proc belongs to the memory it got at exec, so it is sampled while the
// child runs. The rusage figure is still used when it is above the
// parent's peak once the child has started: it is then the child's own,
// and exact where sampling could miss a last rise before exit.
func runPeakRSS(cmd *exec.Cmd) (int64, error) {
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	parent := peakRSS() // at least the parent's peak when the child exec'd
	status := "/proc/" + strconv.Itoa(cmd.Process.Pid) + "/status"
	stop := make(chan struct{})
	sampled := make(chan int64)
	go func() {
		var hwm int64
		t := time.NewTicker(rssSampleEvery)
		defer t.Stop()
		for {
			hwm = max(hwm, statusHWM(status))
			select {
			case <-stop:
				sampled <- hwm
				return
			case <-t.C:
			}
		}
	}()
	// Until Wait reaps the child its pid is not reused, and sampling stops
	// right after, so the samples are the child's.
	err := cmd.Wait()
	close(stop)
	hwm := <-sampled
	if err != nil {
		return 0, err
	}
	if ru := maxRSS(cmd.ProcessState); ru > parent || parent == 0 {
		return max(ru, hwm), nil
	}
	return hwm, nil
}
