//go:build unix

package engine

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/recall-mem/recall"
)

func TestLockFile(t *testing.T) {
	ctx := context.Background()
	p := filepath.Join(t.TempDir(), "tiers.lock")
	unlock, err := LockFile(ctx, p, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("ErrHeld", func(t *testing.T) {
		if _, err := LockFile(ctx, p, 100*time.Millisecond); recall.ErrorCode(err) != recall.EUNAVAILABLE {
			t.Fatalf("want EUNAVAILABLE while held, got %v", err)
		}
	})
	t.Run("OKAfterUnlock", func(t *testing.T) {
		unlock()
		again, err := LockFile(ctx, p, 100*time.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		again()
	})
}
