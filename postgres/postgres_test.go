package postgres_test

import (
	"context"
	"net/url"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/internal/pgtest"
	"github.com/recall-mem/recall/postgres"
	"github.com/recall-mem/recall/recalltest"
)

func TestMain(m *testing.M) {
	if dbURL := os.Getenv(writerEnv); dbURL != "" {
		os.Exit(runWriter(dbURL, os.Getenv("RECALL_PG_WRITER_NAME")))
	}
	os.Exit(pgtest.Run(m))
}

// mustOpen opens a store over a fresh database of the test cluster, in
// namespace ns ("" for the default).
func mustOpen(t *testing.T, dbURL, ns string) *postgres.DB {
	t.Helper()
	if ns != "" {
		u, _ := url.Parse(dbURL)
		q := u.Query()
		q.Set("namespace", ns)
		u.RawQuery = q.Encode()
		dbURL = u.String()
	}
	db, err := postgres.Open(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// connect opens a plain connection to the database, for what the store
// does not do itself (ANALYZE, EXPLAIN, roles).
func connect(t testing.TB, dbURL string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// execSQL runs one statement on the database.
func execSQL(t testing.TB, dbURL, sql string) {
	t.Helper()
	if _, err := connect(t, dbURL).Exec(context.Background(), sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// TestMemoryService_Contract runs the shared MemoryService contract, as the
// SQLite store does.
func TestMemoryService_Contract(t *testing.T) {
	recalltest.TestMemoryService(t, func(t *testing.T) recall.MemoryService {
		return postgres.NewMemoryService(mustOpen(t, pgtest.NewDatabase(t), ""))
	})
}

// TestObservationService_Contract runs the shared ObservationService
// contract.
func TestObservationService_Contract(t *testing.T) {
	recalltest.TestObservationService(t, func(t *testing.T) recall.ObservationService {
		return postgres.NewObservationService(mustOpen(t, pgtest.NewDatabase(t), ""))
	})
}
