package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
)

// openTestApp opens an app on a store in a temporary directory with the
// given config.toml.
func openTestApp(t *testing.T, config string) (*app, *bytes.Buffer) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, configFile), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	a := newApp(strings.NewReader(""), &bytes.Buffer{}, &stderr)
	a.eng.StoreFlag = dir
	if err := a.openForWrite(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.close)
	return a, &stderr
}

// recordOld records n file reads a year old.
func recordOld(t *testing.T, a *app, n int) {
	t.Helper()
	obs := make([]*recall.Observation, n)
	for i := range obs {
		obs[i] = &recall.Observation{At: time.Now().AddDate(-1, 0, 0), Type: recall.ObsFileRead, Content: "read a file"}
	}
	if err := a.eng.Observe(context.Background(), obs); err != nil {
		t.Fatal(err)
	}
}

func TestApp_OpportunisticSweep(t *testing.T) {
	ctx := context.Background()
	const on = "[retention]\nenabled = true\n"
	t.Run("Fires", func(t *testing.T) {
		a, _ := openTestApp(t, on)
		recordOld(t, a, 100)
		if got := a.eng.OpportunisticSweep(ctx, os.Stderr); got != 100 {
			t.Fatalf("swept %d, want 100", got)
		}
	})
	t.Run("BelowThreshold", func(t *testing.T) {
		a, _ := openTestApp(t, on)
		recordOld(t, a, 99)
		if got := a.eng.OpportunisticSweep(ctx, os.Stderr); got != 0 {
			t.Fatalf("swept %d below the threshold", got)
		}
	})
	t.Run("Disabled", func(t *testing.T) {
		a, _ := openTestApp(t, "")
		recordOld(t, a, 500)
		if got := a.eng.OpportunisticSweep(ctx, os.Stderr); got != 0 {
			t.Fatalf("swept %d with retention off", got)
		}
	})
	t.Run("ErrorsAreLoggedNotReturned", func(t *testing.T) {
		a, _ := openTestApp(t, on)
		recordOld(t, a, 100)
		var log bytes.Buffer
		cancelled, cancel := context.WithCancel(ctx)
		cancel()
		if got := a.eng.OpportunisticSweep(cancelled, &log); got != 0 {
			t.Fatalf("swept %d on a cancelled context", got)
		}
		if !strings.Contains(log.String(), "retention sweep") {
			t.Fatalf("log = %q", log.String())
		}
	})
}

func TestApp_RunSweep(t *testing.T) {
	a, _ := openTestApp(t, "[retention]\nenabled = true\n[retention.days]\nfile_read = 400\n")
	recordOld(t, a, 3)
	rep, err := a.eng.Sweep(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Deleted != 0 {
		t.Fatalf("a 400-day period swept year-old reads: %+v", rep)
	}
}
