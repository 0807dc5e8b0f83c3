package pgtest

import (
	"fmt"
	"testing"
)

// recorder is a testing.TB that records whether the test was skipped or
// failed instead of stopping it.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper()                        {}
func (r *recorder) Skipf(format string, a ...any)  { r.skipped = fmt.Sprintf(format, a...) }
func (r *recorder) Fatalf(format string, a ...any) { r.failed = fmt.Sprintf(format, a...) }

// TestUnavailable checks that a missing cluster skips locally but fails
// under CI=true, with the reason either way.
func TestUnavailable(t *testing.T) {
	t.Setenv("CI", "")
	local := &recorder{TB: t}
	unavailable(local, "pgvector is not installed")
	if local.failed != "" || local.skipped != "PostgreSQL tests skipped: pgvector is not installed" {
		t.Fatalf("locally: skipped %q, failed %q", local.skipped, local.failed)
	}
	t.Setenv("CI", "true")
	ci := &recorder{TB: t}
	unavailable(ci, "pgvector is not installed")
	if ci.skipped != "" || ci.failed != "PostgreSQL is required under CI=true: pgvector is not installed" {
		t.Fatalf("under CI: skipped %q, failed %q", ci.skipped, ci.failed)
	}
}
