// Package lazyre compiles a regular expression on first use instead of at
// package initialisation. Every recall process, each hook included, runs
// the initialisers of every package linked into the binary whether it uses
// them or not, so a package-level regexp.MustCompile is paid by processes
// that never match anything with it.
package lazyre

import (
	"regexp"
	"sync"
)

// New returns a function that compiles expr on its first call and gives
// every call the same *regexp.Regexp (safe for concurrent use). As with
// regexp.MustCompile, an invalid expr panics, at that first call.
func New(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
