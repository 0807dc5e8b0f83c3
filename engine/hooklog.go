package engine

import (
	"fmt"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/hook"
)

// HookLogDir is where a hook logs: the directory of the open store, else
// of the store the flags select ("" when none resolves).
func (e *Engine) HookLogDir() string {
	if e.Location != nil {
		return e.Location.Dir
	}
	if loc, err := ResolveStore(e.StoreFlag, e.GlobalFlag); err == nil {
		return loc.Dir
	}
	return ""
}

// LogHookError appends a hook's failure with p (nil when the payload did
// not parse) to the hook log in dir. A hook never fails the agent, so it
// returns the line and whether it was written: a line with nowhere to go
// is for the caller to print on stderr.
func (e *Engine) LogHookError(dir string, p *hook.Payload, err error) (line string, written bool) {
	event := "-"
	if p != nil {
		event = p.Event + " " + p.SessionID
	}
	msg := err.Error()
	if recall.ErrorCode(err) != recall.EINTERNAL {
		msg = recall.ErrorMessage(err)
	}
	line = fmt.Sprintf("%s %s: %s\n", e.Now().Format(time.RFC3339), event, msg)
	return line, dir != "" && AppendHookLog(dir, line) == nil
}
