package main

import (
	"context"
	"testing"
)

// TestGitCheck_NoGit: without git on PATH the check passes and says so.
func TestGitCheck_NoGit(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	a := newApp(nil, nil, nil)
	a.eng.Location = &storeLocation{Dir: t.TempDir()}
	got := a.gitCheck(context.Background())
	if got.Status != checkOK || len(got.Details) != 1 {
		t.Fatalf("gitCheck without git = %+v, want ok with a note", got)
	}
}
