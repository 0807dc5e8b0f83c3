package main

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// gitCheck warns when files of the store are tracked by git. It passes
// when git is not installed or the store is not inside a repository.
func (a *app) gitCheck(ctx context.Context) checkResult {
	const name = "git (store files not tracked)"
	git, err := exec.LookPath("git")
	if err != nil {
		return checkResult{Name: name, Status: checkOK, Details: []string{"git is not installed: not checked"}}
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, git, "-C", a.eng.Location.Dir, "ls-files", "--full-name", "-z", "--", ".")
	cmd.Stdout = &out
	if cmd.Run() != nil { // not a repository, or git cannot tell
		return checkResult{Name: name, Status: checkOK}
	}
	var details []string
	for _, f := range strings.Split(out.String(), "\x00") {
		if f != "" {
			details = append(details, f+" is tracked by git")
		}
	}
	if len(details) == 0 {
		return checkResult{Name: name, Status: checkOK}
	}
	details = append(details, fmt.Sprintf("it holds captured prompts and commands: run `git rm -r --cached %s` and commit; the store's .gitignore keeps it out from then on", a.eng.Location.Dir))
	return checkResult{Name: name, Status: checkWarn, Details: details}
}
