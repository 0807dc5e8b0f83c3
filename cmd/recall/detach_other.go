//go:build !unix

package main

import "os/exec"

// detach leaves cmd as it is where sessions are not a Unix notion; its
// stdio is nil (the null device) all the same.
func detach(*exec.Cmd) {}

// yieldCPU does nothing where priorities are not set this way.
func yieldCPU(int) {}
