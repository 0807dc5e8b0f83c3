//go:build unix

package main

import (
	"os"
	"os/exec"
	"strconv"
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

// handsLockOver: the upkeep lock a SessionStart hook kept is handed to
// the upkeep process it starts, as an inherited descriptor.
const handsLockOver = true

// upkeepLockFDEnv names the descriptor of the upkeep lock handed to a
// 'recall hook upkeep' process.
const upkeepLockFDEnv = "RECALL_UPKEEP_LOCK_FD"

// handUpkeepLock passes lock to cmd as its descriptor 3 and says so in
// its environment.
func handUpkeepLock(cmd *exec.Cmd, lock *os.File) {
	cmd.ExtraFiles = []*os.File{lock}
	cmd.Env = append(os.Environ(), upkeepLockFDEnv+"=3")
}

// handedUpkeepLock is the descriptor of the upkeep lock the starting
// hook handed this process, if any. The variable is cleared: nothing this
// process starts inherits it.
func handedUpkeepLock() (uintptr, bool) {
	v, ok := os.LookupEnv(upkeepLockFDEnv)
	if !ok {
		return 0, false
	}
	_ = os.Unsetenv(upkeepLockFDEnv)
	fd, err := strconv.Atoi(v)
	if err != nil || fd < 3 {
		return 0, false
	}
	return uintptr(fd), true
}
