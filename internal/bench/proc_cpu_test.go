package bench

import (
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"
)

func rusageCPU(t *testing.T) time.Duration {
	t.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// processCPU reads what getrusage says of this process, to /proc's tick.
func TestProcessCPU_MatchesRusage(t *testing.T) {
	if runtime.GOOS != "linux" {
		if _, ok := processCPU(os.Getpid()); ok {
			t.Fatal("processCPU claims a figure without /proc")
		}
		t.Skip("no /proc here")
	}
	start := rusageCPU(t)
	x := 1.0
	for rusageCPU(t)-start < 150*time.Millisecond {
		for range 100000 {
			x = x*1.0000001 + 1e-9
		}
	}
	before := rusageCPU(t)
	got, ok := processCPU(os.Getpid())
	after := rusageCPU(t)
	if !ok {
		t.Fatal("processCPU found no figure for this process")
	}
	// /proc counts in ticks of 10 ms, and rounds each thread's time.
	slack := 10 * clockTick
	if got < before-slack || got > after+slack {
		t.Errorf("processCPU = %v, getrusage %v..%v (x=%v)", got, before, after, x)
	}
	if _, ok := processCPU(-1); ok {
		t.Error("processCPU found a figure for pid -1")
	}
}

// processMemory reads this process's peak and own resident memory: 64
// MiB allocated and touched count in both.
func TestProcessMemory_CountsTouchedMemory(t *testing.T) {
	if runtime.GOOS != "linux" {
		if _, _, ok := processMemory(os.Getpid()); ok {
			t.Fatal("processMemory claims a figure without /proc")
		}
		t.Skip("no /proc here")
	}
	const size = 64 << 20
	b := make([]byte, size)
	for i := range b {
		b[i] = byte(i)
	}
	peak, anon, ok := processMemory(os.Getpid())
	if !ok {
		t.Fatal("processMemory found no figure for this process")
	}
	if anon < size || peak < anon {
		t.Errorf("peak %d, own %d bytes after touching %d: want own at least that, peak at least own", peak, anon, size)
	}
	runtime.KeepAlive(b)
}
