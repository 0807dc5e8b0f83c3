package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestStaticBuild backs the README's claim: no package recall is built from
// needs cgo (SQLite is modernc.org/sqlite, pure Go), so CGO_ENABLED=0
// builds a static binary, and with cgo on only the standard library's
// resolvers (net, os/user) link the system's libc.
func TestStaticBuild(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	list := func(cgo string) []string {
		t.Helper()
		cmd := exec.Command(goBin, "list", "-deps", "-f", "{{.ImportPath}} {{.Standard}} {{len .CgoFiles}} {{.Incomplete}}", ".")
		cmd.Env = append(os.Environ(), "CGO_ENABLED="+cgo)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list with CGO_ENABLED=%s: %v", cgo, err)
		}
		return strings.Split(strings.TrimSpace(string(out)), "\n")
	}
	for _, line := range list("0") {
		f := strings.Fields(line)
		if f[2] != "0" || f[3] != "false" {
			t.Errorf("CGO_ENABLED=0: %s uses cgo or is incomplete: the binary would not be static", f[0])
		}
	}
	for _, line := range list("1") {
		if f := strings.Fields(line); f[2] != "0" && f[1] != "true" {
			t.Errorf("CGO_ENABLED=1: %s, outside the standard library, uses cgo: the README says only the standard library does", f[0])
		}
	}
}
