package recall

import (
	"errors"
	"fmt"
)

// Error codes. Each transport maps them once: exit codes in the CLI, status
// codes in HTTP, isError results in MCP.
const (
	ECONFLICT     = "conflict"     // the change clashes with existing data (key taken, duplicate pin)
	EINTERNAL     = "internal"     // a bug or an I/O failure; details go to the log, not the user
	EINVALID      = "invalid"      // bad input: a malformed key, flag, JSON or query
	ENOTFOUND     = "not_found"    // no memory, version or observation with that id
	ETOOLARGE     = "too_large"    // content over the configured size cap
	EUNAUTHORIZED = "unauthorized" // missing or wrong token on a server
	EFORBIDDEN    = "forbidden"    // refused whoever asks: a server's Host or cross-site guard
	EUNAVAILABLE  = "unavailable"  // a dependency (embedding provider, store) cannot be reached now
	ENOTIMPL      = "not_implemented"
)

// Error is an application error: a code for programs and a message for the
// person or agent that reads it. The message is a full sentence that says
// what to do next.
type Error struct {
	Code    string
	Message string
}

func (e *Error) Error() string {
	return fmt.Sprintf("recall error: code=%s message=%s", e.Code, e.Message)
}

// Errorf returns an *Error with the given code and formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of the first *Error in err's chain, EINTERNAL
// for any other non-nil error, and "" for nil.
func ErrorCode(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) {
		return e.Code
	}
	return EINTERNAL
}

// ErrorMessage returns the human message of the first *Error in err's chain,
// or a generic message for internal errors so that details never leak.
func ErrorMessage(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) {
		return e.Message
	}
	return "Internal error: see the log for details, then retry; run `recall doctor` if it persists."
}
