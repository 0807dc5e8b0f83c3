package engine

import (
	"context"
	"testing"
)

// TestGitCheck_NoGit: without git on PATH the check passes and says so.
func TestGitCheck_NoGit(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	e := &Engine{Location: &Location{Dir: t.TempDir()}}
	got := e.gitCheck(context.Background())
	if got.Status != CheckOK || len(got.Details) != 1 {
		t.Fatalf("gitCheck without git = %+v, want ok with a note", got)
	}
}
