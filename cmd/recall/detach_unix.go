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

// backgroundNice is the scheduling priority of the upkeep a hook leaves
// running: below the hooks and searches of the agent that goes on.
const backgroundNice = 10

// yieldCPU lowers the priority of the started process pid; failing only
// leaves it at the hook's.
func yieldCPU(pid int) { _ = syscall.Setpriority(syscall.PRIO_PROCESS, pid, backgroundNice) }
