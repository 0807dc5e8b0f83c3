// Package pgtest runs a throw-away PostgreSQL 15 cluster for tests: one
// cluster per test binary, started from TestMain with Run, and a fresh
// database for each test from NewDatabase.
//
// The cluster lives in a temporary directory and listens only on a unix
// socket there, so tests never touch a server the machine already runs.
// initdb refuses to run as root, so under root (as in CI) the cluster is
// started as the unprivileged "postgres" system user.
//
// Without PostgreSQL 15 or pgvector the tests skip with the reason; under
// CI=true they fail instead, so CI cannot pass by testing nothing.
package pgtest

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
)

// BinDir holds the PostgreSQL 15 server binaries (Debian's layout).
const BinDir = "/usr/lib/postgresql/15/bin"

// superuser is the cluster's superuser, named at initdb.
const superuser = "recall"

var (
	mu      sync.Mutex
	current *Cluster
	absent  string // why there is no cluster, when there is none
	counter atomic.Int64
)

// Run starts a cluster, runs the tests and removes the cluster; call it
// from TestMain as os.Exit(pgtest.Run(m)). A cluster that cannot be
// started is not an error here: each test that asks for a database skips
// (or fails under CI=true) with the reason.
func Run(m *testing.M) int {
	c, err := Start()
	if err != nil {
		absent = err.Error()
	} else {
		mu.Lock()
		current = c
		mu.Unlock()
	}
	code := m.Run()
	if c != nil {
		if err := c.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "pgtest:", err)
		}
	}
	return code
}

// NewDatabase creates an empty database in the shared cluster and returns
// its connection URL. The test skips when there is no cluster, or fails
// when CI=true.
func NewDatabase(t testing.TB) string {
	t.Helper()
	mu.Lock()
	c := current
	mu.Unlock()
	if c == nil {
		why := absent
		if why == "" {
			why = "pgtest.Run was not called from TestMain"
		}
		unavailable(t, why)
		return ""
	}
	return c.NewDatabase(t)
}

// NewDatabase creates an empty database in the cluster and returns its
// connection URL, for a test that started a cluster of its own (a test
// binary whose TestMain is not pgtest.Run's).
func (c *Cluster) NewDatabase(t testing.TB) string {
	t.Helper()
	name := fmt.Sprintf("t%d_%d", os.Getpid(), counter.Add(1))
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, c.URL("postgres"))
	if err != nil {
		t.Fatalf("pgtest: connect: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("pgtest: create database: %v", err)
	}
	return c.URL(name)
}

// Skip skips t, or fails it under CI=true, because PostgreSQL is not
// there to test with; why says what is missing.
func Skip(t testing.TB, why string) {
	t.Helper()
	unavailable(t, why)
}

// unavailable skips t for want of a cluster, or fails it under CI=true:
// CI must not pass by testing nothing.
func unavailable(t testing.TB, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("PostgreSQL is required under CI=true: %s", why)
		return
	}
	t.Skipf("PostgreSQL tests skipped: %s", why)
}

// URL is the connection URL of database name in the cluster, over its
// unix socket.
func (c *Cluster) URL(name string) string {
	q := url.Values{"host": {c.dir}, "user": {superuser}, "sslmode": {"disable"}}
	return "postgres:///" + name + "?" + q.Encode()
}
