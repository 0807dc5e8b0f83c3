//go:build !unix

package main

import (
	"os"
	"os/exec"
)

// detach leaves cmd as it is where sessions are not a Unix notion; its
// stdio is nil (the null device) all the same.
func detach(*exec.Cmd) {}

// yieldCPU does nothing where priorities are not set this way.
func yieldCPU(int) {}

// handsLockOver: no descriptor is handed to the upkeep process here (nor
// are advisory locks wired up); it takes the lock itself.
const handsLockOver = false

func handUpkeepLock(*exec.Cmd, *os.File) {}

func handedUpkeepLock() (uintptr, bool) { return 0, false }
