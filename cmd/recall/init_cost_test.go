package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// TestInit_NoEagerRegexps checks that the packages whose initialisation
// used to compile regular expressions (or, web, build its Markdown
// renderer) no longer do: every recall process,
// each hook included, runs every linked package's init. It reruns this
// test binary (which links what the command links) with
// GODEBUG=inittrace=1 and no tests, and reads each package's allocation
// count at init. Compiling one expression costs 20-70 allocations and
// these packages held 2 to 14 of them (before: root 298, timeq 1,569,
// maintain 723, redact 373, internal/locomo 107 allocations); the budgets
// leave room for the small word maps that remain, not for the expressions.
func TestInit_NoEagerRegexps(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, stderr.String())
	}
	allocs := initAllocs(t, stderr.Bytes())
	const mod = "github.com/recall-mem/recall"
	budget := map[string]int{
		mod:                      40,
		mod + "/timeq":           40,
		mod + "/maintain":        80,
		mod + "/redact":          40,
		mod + "/internal/locomo": 30,
		mod + "/markdown":        30,
		mod + "/web":             30,
	}
	for pkg, max := range budget {
		got, ok := allocs[pkg]
		if !ok {
			t.Errorf("no init trace for %s", pkg)
			continue
		}
		if got > max {
			t.Errorf("init of %s allocates %d objects, over its budget of %d: a package-level expression compiled at init?", pkg, got, max)
		}
	}
}

// initAllocs reads GODEBUG=inittrace=1 lines, "init PKG @T ms, C ms clock,
// B bytes, N allocs", into N by package.
func initAllocs(t *testing.T, trace []byte) map[string]int {
	t.Helper()
	out := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(trace))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 11 || f[0] != "init" || f[10] != "allocs" {
			continue
		}
		n, err := strconv.Atoi(f[9])
		if err != nil {
			t.Fatalf("init trace line %q: %v", sc.Text(), err)
		}
		out[f[1]] = n
	}
	return out
}
