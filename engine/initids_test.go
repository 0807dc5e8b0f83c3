package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEngine_InitIDs(t *testing.T) {
	ctx := context.Background()
	e := openEngine(t)
	root := t.TempDir()
	file := filepath.Join(root, e.Config.Working.File)
	if err := os.WriteFile(file, []byte("# Working\n\n- Keep commits small.\n- Run the linter ^tr0123456789\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tagged, err := e.InitIDs(ctx, root)
	if err != nil || len(tagged) != 1 {
		t.Fatalf("InitIDs = %+v, %v: want the one untagged entry", tagged, err)
	}
	got := tagged[0]
	if got.Line != 3 || got.Text != "Keep commits small." || got.ID == "" {
		t.Errorf("tagged = %+v", got)
	}
	b, _ := os.ReadFile(file)
	if !strings.Contains(string(b), "- Keep commits small. ^"+got.ID+"\n") {
		t.Errorf("file after InitIDs:\n%s", b)
	}
	again, err := e.InitIDs(ctx, root)
	if err != nil || again == nil || len(again) != 0 {
		t.Errorf("second run = %#v, %v: want an empty list", again, err)
	}
}
