//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// detach puts cmd in a session of its own, so that it outlives its parent
// and no signal to the parent's process group (an agent closing its
// terminal) reaches it. Its stdio is left nil: /dev/null.
func detach(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }
