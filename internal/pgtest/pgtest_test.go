package pgtest_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/recall-mem/recall/internal/pgtest"
)

// orphanEnv makes the test binary start a cluster, print its server's pid
// and wait to be killed, for TestServerDiesWithTestBinary.
const orphanEnv = "PGTEST_ORPHAN"

func runOrphan() int {
	c, err := pgtest.Start()
	if err != nil {
		fmt.Println("error", err)
		return 1
	}
	fmt.Println("server", c.PID(), c.Dir())
	time.Sleep(time.Minute)
	return 0
}

func TestMain(m *testing.M) {
	if os.Getenv(orphanEnv) != "" {
		os.Exit(runOrphan())
	}
	os.Exit(pgtest.Run(m))
}

// TestNewDatabase checks that each test gets its own empty database in
// the shared cluster, with pgvector available.
func TestNewDatabase(t *testing.T) {
	ctx := context.Background()
	a, b := pgtest.NewDatabase(t), pgtest.NewDatabase(t)
	if a == b {
		t.Fatalf("two tests got the same database %s", a)
	}
	conn, err := pgx.Connect(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE EXTENSION vector; CREATE TABLE t (v vector(3))"); err != nil {
		t.Fatal(err)
	}
	var version string
	if err := conn.QueryRow(ctx, "SHOW server_version").Scan(&version); err != nil || version[:3] != "15." {
		t.Fatalf("server_version %q, %v: want 15.x", version, err)
	}
	other, err := pgx.Connect(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close(ctx)
	var n int
	if err := other.QueryRow(ctx, "SELECT count(*) FROM pg_tables WHERE tablename = 't'").Scan(&n); err != nil || n != 0 {
		t.Fatalf("the second database sees %d tables named t (%v)", n, err)
	}
}
