package bench

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// peakRSS returns this process's peak resident set size in bytes from
// /proc (VmHWM), or 0 where there is no /proc.
func peakRSS() int64 {
	return statusHWM("/proc/self/status")
}

// statusHWM reads the VmHWM line of a /proc status file in bytes, or 0
// when the file or the line is missing (no /proc, or a process that has
// exited and no longer has memory).
func statusHWM(path string) int64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}
