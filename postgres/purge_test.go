package postgres_test

import (
	"context"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/chunk"
	"github.com/recall-mem/recall/hashing"
	"github.com/recall-mem/recall/internal/pgtest"
)

// pagesHolding counts the pages of the store's tables (heap and indexes)
// whose raw bytes hold text, live or dead rows alike, through pageinspect
// (the test cluster's role is a superuser).
func pagesHolding(t *testing.T, dbURL, text string) map[string]int {
	t.Helper()
	conn := connect(t, dbURL)
	ctx := context.Background()
	if _, err := conn.Exec(ctx, `CREATE EXTENSION IF NOT EXISTS pageinspect`); err != nil {
		t.Skipf("pageinspect is not available: %v", err)
	}
	rows, err := conn.Query(ctx, `SELECT c.relname, count(*) FROM pg_class c
		CROSS JOIN LATERAL generate_series(0, pg_relation_size(c.oid) / current_setting('block_size')::int - 1) AS b
		WHERE c.relkind IN ('r', 'i', 't') AND c.relnamespace = 'public'::regnamespace AND c.relam <> (SELECT oid FROM pg_am WHERE amname = 'hnsw')
		AND position($1::bytea IN get_raw_page(c.oid::regclass::text, b::int)) > 0
		GROUP BY c.relname`, []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var rel string
		var n int
		if err := rows.Scan(&rel, &n); err != nil {
			t.Fatal(err)
		}
		out[rel] = n
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestPurge_EveryTrace purges a secret that sits in a memory's history,
// its vectors, an observation, a session's summary and a rollup, and
// checks that no page of any table or index still holds its bytes: a
// DELETE alone leaves dead rows in place, which VACUUM FULL removes.
func TestPurge_EveryTrace(t *testing.T) {
	ctx := context.Background()
	const secret = "zq7swordfishx"
	dbURL := pgtest.NewDatabase(t)
	st := openStoreAt(t, dbURL, recall.StoreOptions{Embedding: &recall.EmbeddingOptions{Embedder: hashing.NewHashing(0), Chunker: chunk.Splitter{}, Inline: true}})
	mem := st.Memories()
	m, err := mem.PutMemory(ctx, &recall.Memory{Key: "db", Content: "the password is " + secret})
	if err != nil {
		t.Fatal(err)
	}
	clean := "the password is in the vault"
	if _, err := mem.UpdateMemory(ctx, m.Memory.ID, recall.MemoryUpdate{Content: &clean}); err != nil {
		t.Fatal(err)
	}
	keep, err := mem.PutMemory(ctx, &recall.Memory{Content: "nothing to hide"})
	if err != nil {
		t.Fatal(err)
	}
	sess := st.Sessions(recall.SessionOptions{})
	if _, err := sess.StartSession(ctx, &recall.Session{ID: "s1"}); err != nil {
		t.Fatal(err)
	}
	if err := st.Observations().RecordObservations(ctx, []*recall.Observation{
		{At: day0, Type: "command", Session: "s1", Content: "export PW=" + secret},
		{At: day0, Type: "command", Session: "s1", Content: "make test"},
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := sess.EndSession(ctx, recall.SessionEnd{ID: "s1", Summary: "rotated " + secret}); err != nil {
		t.Fatal(err)
	}
	if _, err := rollups(t, st).RunRollups(ctx, recall.RollupRun{Now: day0.AddDate(0, 2, 0)}); err != nil {
		t.Fatal(err)
	}
	if len(pagesHolding(t, dbURL, secret)) == 0 {
		t.Fatal("the secret is on no page before the purge: the check sees nothing")
	}

	f := st.Forgetting()
	rep, err := f.Purge(ctx, recall.PurgeCriteria{Search: secret, Memories: true})
	if err != nil || rep.Memories != 1 || rep.Versions != 2 || rep.SessionTexts != 1 {
		t.Fatalf("purge memories = %+v, %v", rep, err)
	}
	if rep.Upkeep == nil || !rep.Upkeep.Vacuumed {
		t.Fatalf("purge upkeep = %+v: want the tables rewritten", rep.Upkeep)
	}
	// Rollups holding the secret went with the memories' purge (a purge's
	// search takes every copy); those built from the observation with it.
	rollupsGone := rep.Rollups
	rep, err = f.Purge(ctx, recall.PurgeCriteria{Search: secret})
	if err != nil || rep.Observations != 1 || rollupsGone+rep.Rollups == 0 {
		t.Fatalf("purge observations = %+v, %v (%d rollups before): want the observation and the rollups of it", rep, err, rollupsGone)
	}
	if left := pagesHolding(t, dbURL, secret); len(left) != 0 {
		t.Fatalf("after the purges the secret is still on pages of %v", left)
	}
	if _, err := mem.FindMemory(ctx, keep.Memory.ID, ""); err != nil {
		t.Fatalf("the purge took an unrelated memory: %v", err)
	}
	if _, n, err := st.Observations().FindObservations(ctx, recall.ObservationFilter{}); err != nil || n != 1 {
		t.Fatalf("%d observations left, %v: want the unrelated one", n, err)
	}
	plan, err := f.PlanPurge(ctx, recall.PurgeCriteria{Search: "zq7sword", Match: recall.MatchPrefix, Memories: true}, 5)
	if err != nil || plan.Memories != 0 {
		t.Fatalf("a plan after the purge = %+v, %v", plan, err)
	}
	stats, err := f.StoreStats(ctx, day0)
	if err != nil || stats.LastPurge == nil || stats.Memories != 1 {
		t.Fatalf("StoreStats = %+v, %v", stats, err)
	}
}

// TestPurge_Wider says what a wider --match rule would find when the
// words match nothing, as on SQLite.
func TestPurge_Wider(t *testing.T) {
	ctx := context.Background()
	st := openStore(t, recall.StoreOptions{})
	if _, err := st.Memories().PutMemory(ctx, &recall.Memory{Content: "key AKIAIOSFODNN7EXAMPLE leaked"}); err != nil {
		t.Fatal(err)
	}
	plan, err := st.Forgetting().PlanPurge(ctx, recall.PurgeCriteria{Search: "AKIA", Memories: true}, 5)
	if err != nil || plan.Memories != 0 || plan.Wider == nil || plan.Wider.Match != recall.MatchPrefix || plan.Wider.Matches != 1 {
		t.Fatalf("PlanPurge(AKIA, words) = %+v, %v: want a wider prefix match", plan, err)
	}
	plan, err = st.Forgetting().PlanPurge(ctx, recall.PurgeCriteria{Search: "IOSFODNN", Match: recall.MatchSubstring, Memories: true}, 5)
	if err != nil || plan.Memories != 1 || plan.Sample[0].Rule != recall.MatchSubstring {
		t.Fatalf("PlanPurge(substring) = %+v, %v", plan, err)
	}
	if !strings.Contains(plan.Sample[0].Text, "AKIA") {
		t.Errorf("sample text %q", plan.Sample[0].Text)
	}
}
