//go:build unix

package bench

import (
	"os"
	"runtime"
	"syscall"
)

// maxRSS is a finished child's peak resident set size in bytes.
func maxRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return ru.Maxrss // bytes there, kilobytes elsewhere
	}
	return ru.Maxrss << 10
}
