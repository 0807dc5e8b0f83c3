//go:build unix

package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
)

// With KeepUpkeepLock a deferring session start keeps the upkeep lock it
// tried, for the process it leaves the upkeep to: nobody else takes it
// meanwhile, the file handed over is adopted only if it is that lock,
// the upkeep run on it does the work and lets it go, and a lock never
// handed over goes with Close.
func TestEngine_DeferringStartKeepsTheUpkeepLock(t *testing.T) {
	ctx := context.Background()
	e := roomyEngine(t)
	e.DeferUpkeep, e.KeepUpkeepLock = true, true
	lockPath := filepath.Join(e.Location.Dir, engine.UpkeepLockFile)
	stamp := filepath.Join(e.Location.Dir, engine.UpkeepStampFile)
	free := func() bool {
		t.Helper()
		unlock, err := engine.LockFile(ctx, lockPath, 0)
		if err != nil {
			return false
		}
		unlock()
		return true
	}
	day := e.Now().Truncate(24*time.Hour).AddDate(0, 0, -3)
	if err := e.Observe(ctx, []*recall.Observation{{Type: recall.ObsCommand, Session: "old", Content: "make build", At: day}}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.StartSession(ctx, &recall.Session{ID: "s1", Agent: "test"}); err != nil {
		t.Fatal(err)
	}
	if !e.UpkeepDeferred() || free() {
		t.Fatalf("deferred=%v, lock free=%v after a deferring start; want true and false", e.UpkeepDeferred(), free())
	}
	if _, err := e.StartSession(ctx, &recall.Session{ID: "s2", Agent: "test"}); err != nil {
		t.Fatal(err)
	}
	lock := e.TakeUpkeepLock()
	if lock == nil || e.TakeUpkeepLock() != nil {
		t.Fatal("the kept lock is not handed over exactly once")
	}

	other, err := os.CreateTemp(t.TempDir(), "not-the-lock")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if e.AdoptUpkeepLock(other.Fd()) {
		t.Fatal("a file that is not the upkeep lock was adopted")
	}
	// Another descriptor on the same file, while the kept lock holds it,
	// is the file but not its lock.
	again, err := os.OpenFile(lockPath, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if e.AdoptUpkeepLock(again.Fd()) {
		t.Fatal("a descriptor on the lock's file that does not hold the lock was adopted")
	}
	// The upkeep process's copy of the descriptor; the hook's is closed.
	fd, err := syscall.Dup(int(lock.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	lock.Close()
	if free() {
		t.Fatal("the lock went with the hook's copy of its descriptor")
	}
	if !e.AdoptUpkeepLock(uintptr(fd)) {
		t.Fatal("the handed-over lock was not adopted")
	}
	// Adopted, it must not pass on to programs the upkeep would start.
	if flags, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_GETFD, 0); errno != 0 || flags&syscall.FD_CLOEXEC == 0 {
		t.Fatalf("the adopted lock's descriptor is inherited across exec (flags %#x, %v)", flags, errno)
	}
	e.SessionUpkeep(ctx, 0)
	if _, err := os.Stat(stamp); err != nil {
		t.Fatalf("the upkeep on the handed-over lock recorded no complete run: %v", err)
	}
	if !free() {
		t.Fatal("the upkeep kept the lock after its run")
	}

	if err := os.Remove(stamp); err != nil {
		t.Fatal(err)
	}
	second := engine.New(testParts())
	second.StoreFlag = e.StoreFlag
	second.DeferUpkeep, second.KeepUpkeepLock = true, true
	if err := second.OpenForWrite(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := second.StartSession(ctx, &recall.Session{ID: "s3", Agent: "test"}); err != nil {
		t.Fatal(err)
	}
	if free() {
		t.Fatal("a deferring start with the upkeep due kept no lock")
	}
	second.Close()
	if !free() {
		t.Fatal("Close kept a lock never handed over")
	}
}
