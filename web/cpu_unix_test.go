//go:build unix

package web

import "syscall"

// processCPU is the CPU time (user and system) this process has used, in
// nanoseconds: the benchmarks report it beside wall time, which a loaded
// machine stretches.
func processCPU() int64 {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return u.Utime.Nano() + u.Stime.Nano()
}
