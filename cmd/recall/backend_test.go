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
	c := startPostgres(t)
	if c == nil {
		return
	}
	testscript.Run(t, testscript.Params{
		Dir: "testdata/postgres",
		Setup: func(env *testscript.Env) error {
			env.Setenv("PGURL", c.NewDatabase(t))
			return scriptEnv(env)
		},
	})
}

// startPostgres starts a throw-away PostgreSQL cluster for the test and
// stops it at the end; without PostgreSQL it skips the test (fails under
// CI=true) and returns nil.
func startPostgres(t *testing.T) *pgtest.Cluster {
	t.Helper()
	c, err := pgtest.Start()
	if err != nil {
		pgtest.Skip(t, err.Error())
		return nil
	}
	t.Cleanup(func() {
		if err := c.Stop(); err != nil {
			t.Error(err)
		}
	})
	return c
}
