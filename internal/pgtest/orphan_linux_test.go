package pgtest_test

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/recall-mem/recall/internal/pgtest"
)

// TestServerDiesWithTestBinary kills a test binary that has a cluster
// running, as a timeout or an impatient developer would: its server must
// not live on.
func TestServerDiesWithTestBinary(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), orphanEnv+"=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	f := strings.Fields(line)
	if len(f) < 3 || f[0] != "server" {
		cmd.Process.Kill()
		cmd.Wait()
		pgtest.Skip(t, strings.TrimSpace(line))
	}
	pid, _ := strconv.Atoi(f[1])
	cmd.Process.Kill()
	cmd.Wait()
	defer os.RemoveAll(f[2]) // the killed binary could not
	for start := time.Now(); syscall.Kill(pid, 0) == nil; time.Sleep(50 * time.Millisecond) {
		if time.Since(start) > 30*time.Second {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("server %d outlived its test binary", pid)
		}
	}
}
