package recall

import (
	"regexp"
	"sync"
)

// lazyRegexp compiles expr at first use, not at package initialisation,
// which every recall process (each hook is one) would otherwise pay for
// whether it validates ids and slugs or not. (internal/lazyre does the
// same for the other packages; this package imports the standard library
// only.)
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
