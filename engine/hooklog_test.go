package engine_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/hook"
)

func TestEngine_LogHookError(t *testing.T) {
	dir := t.TempDir()
	e := engine.New(testParts())
	e.StoreFlag = dir
	if got := e.HookLogDir(); got != dir {
		t.Fatalf("HookLogDir = %q, want the --store directory %q", got, dir)
	}
	p := &hook.Payload{Event: hook.EventStop, SessionID: "s1"}
	if line, ok := e.LogHookError(dir, p, recall.Errorf(recall.ECONFLICT, "Busy.")); !ok || !strings.HasSuffix(line, " Stop s1: Busy.\n") {
		t.Errorf("LogHookError = %q, %v: want the message, written", line, ok)
	}
	if line, ok := e.LogHookError(dir, nil, errors.New("bad json")); !ok || !strings.HasSuffix(line, " -: bad json\n") {
		t.Errorf("LogHookError(no payload) = %q, %v", line, ok)
	}
	b, err := os.ReadFile(filepath.Join(dir, engine.HookLogFile))
	if err != nil || strings.Count(string(b), "\n") != 2 {
		t.Errorf("hook log %q, %v: want both lines", b, err)
	}
	if line, ok := e.LogHookError("", p, errors.New("lost")); ok || line == "" {
		t.Errorf("LogHookError with no directory = %q, %v: want the line back, unwritten", line, ok)
	}
}
