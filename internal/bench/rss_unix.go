//go:build unix

package bench

import (
	"os"
	"runtime"
	"syscall"
	"time"
)

// selfCPU is the CPU time (user and system) this process has used
// (getrusage: finer than the clock ticks processCPU reads of another
// process).
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// maxRSS is a finished child's peak resident set size in bytes.
func maxRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	peak := int64(ru.Maxrss) // int32 on 32-bit Linux
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return peak // bytes there, kilobytes elsewhere
	}
	return peak << 10
}
