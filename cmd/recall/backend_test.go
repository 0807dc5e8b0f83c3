package main

import (
	"testing"

	"github.com/recall-mem/recall/internal/pgtest"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestPostgresScripts runs the scripts in testdata/postgres against the
// CLI with $PGURL, a fresh database of a throw-away PostgreSQL cluster
// per script. Without PostgreSQL the test skips (fails under CI=true).
func TestPostgresScripts(t *testing.T) {
	c, err := pgtest.Start()
	if err != nil {
		pgtest.Skip(t, err.Error())
		return
	}
	t.Cleanup(func() {
		if err := c.Stop(); err != nil {
			t.Error(err)
		}
	})
	testscript.Run(t, testscript.Params{
		Dir: "testdata/postgres",
		Setup: func(env *testscript.Env) error {
			env.Setenv("PGURL", c.NewDatabase(t))
			return scriptEnv(env)
		},
	})
}
