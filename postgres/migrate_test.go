package postgres_test

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/internal/pgtest"
	"github.com/recall-mem/recall/postgres"
)

// TestOpenAsDatabaseOwner checks the least privilege docs/postgres.md
// promises: once a superuser has created the vector extension, a plain
// role that owns the database can open the store (running every
// migration) and use it, and opening again changes nothing.
func TestOpenAsDatabaseOwner(t *testing.T) {
	ctx := context.Background()
	admin := pgtest.NewDatabase(t)
	conn := connect(t, admin)
	u, _ := url.Parse(admin)
	name := u.Path[1:]
	for _, stmt := range []string{
		`CREATE ROLE owner_` + name + ` LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE`,
		`ALTER DATABASE ` + name + ` OWNER TO owner_` + name,
		`CREATE EXTENSION vector`,
	} {
		if _, err := conn.Exec(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	q := u.Query()
	q.Set("user", "owner_"+name)
	u.RawQuery = q.Encode()
	var applied []int
	for range 2 {
		db, err := postgres.Open(ctx, u.String())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := postgres.NewMemoryService(db).PutMemory(ctx, &recall.Memory{Content: "owned"}); err != nil {
			t.Fatal(err)
		}
		db.Close()
		var n int
		if err := conn.QueryRow(ctx, `SELECT count(*) FROM recall_migrations`).Scan(&n); err != nil || n == 0 {
			t.Fatalf("%d migrations recorded (%v)", n, err)
		}
		applied = append(applied, n)
	}
	if applied[0] != applied[1] {
		t.Fatalf("migrations recorded after each open: %v; the second open must apply none", applied)
	}
}

// TestOpen_NewerDatabaseRefused: a database a newer recall has migrated is
// refused with what to do, and left as it was.
func TestOpen_NewerDatabaseRefused(t *testing.T) {
	ctx := context.Background()
	admin := pgtest.NewDatabase(t)
	db, err := postgres.Open(ctx, admin)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	conn := connect(t, admin)
	if _, err := conn.Exec(ctx, `INSERT INTO recall_migrations (version, name) VALUES (9999, '9999_future.sql')`); err != nil {
		t.Fatal(err)
	}
	var before int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM recall_migrations`).Scan(&before); err != nil {
		t.Fatal(err)
	}
	_, err = postgres.Open(ctx, admin)
	if err == nil {
		t.Fatal("a database migrated by a newer recall opened")
	}
	if recall.ErrorCode(err) != recall.ECONFLICT || !strings.Contains(err.Error(), "9999") || !strings.Contains(err.Error(), "newer recall") {
		t.Fatalf("error = %v (%s); want a conflict naming the migration and a newer recall", err, recall.ErrorCode(err))
	}
	var after int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM recall_migrations`).Scan(&after); err != nil || after != before {
		t.Fatalf("%d migrations recorded after the refusal, %d before (%v)", after, before, err)
	}
}
