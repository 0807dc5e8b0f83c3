//go:build !linux

package pgtest

import "os/exec"

// dieWithParent does nothing where the kernel cannot signal a child when
// its parent dies: a test binary killed mid-run leaves its server behind.
func dieWithParent(*exec.Cmd) {}
