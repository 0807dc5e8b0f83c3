package postgres

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/recall-mem/recall"
)

// Upkeep is the care of the store: checks, counts and the namespace's
// backup.
type Upkeep struct {
	db *DB
}

var _ recall.StoreUpkeep = Upkeep{}

// Clock is the store's time now.
func (u Upkeep) Clock() time.Time { return u.db.now() }

// QuickCheck is the heartbeat's probe: the server answers and its schema
// is the one this binary expects.
func (u Upkeep) QuickCheck(ctx context.Context) error {
	all, err := loadMigrations()
	if err != nil {
		return err
	}
	var n, newest int
	if err := u.db.pool.QueryRow(ctx, `SELECT count(*), coalesce(max(version), 0) FROM recall_migrations`).Scan(&n, &newest); err != nil {
		return u.db.wrap(recall.EUNAVAILABLE, "check", err)
	}
	if want := all[len(all)-1].version; n != len(all) || newest != want {
		return fmt.Errorf("store check failed: the database has %d migrations up to %d, this recall expects %d up to %d", n, newest, len(all), want)
	}
	return nil
}

// Check is QuickCheck, then a read of every row of every table of the
// namespace (which fails on a damaged page, as PostgreSQL checksums and
// decoding see it) and the consistency of what the schema cannot enforce:
// the orphans. The server keeps its own files sound (WAL, checksums);
// amcheck is the tool for its indexes, run by a database administrator.
func (u Upkeep) Check(ctx context.Context) error {
	if err := u.QuickCheck(ctx); err != nil {
		return err
	}
	var problems []string
	for _, t := range storeTables {
		var n int64
		if err := u.db.pool.QueryRow(ctx, `SELECT count(*) FROM (SELECT t::text FROM `+t+` t WHERE t.namespace = $1) r`, u.db.Namespace).Scan(&n); err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", t, err))
		}
	}
	orphans, err := u.Orphans(ctx)
	if err != nil {
		return err
	}
	for kind, n := range orphans {
		if n > 0 && kind != recall.OrphanObservations { // those are by design
			problems = append(problems, fmt.Sprintf("%d %s", n, kind))
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("store check failed: %s", strings.Join(problems, "; "))
	}
	return nil
}

// Orphans counts rows of the namespace that point at something missing,
// by kind. Every count is zero in a healthy store.
func (u Upkeep) Orphans(ctx context.Context) (map[string]int, error) {
	queries := map[string]string{
		recall.OrphanObservations: `SELECT count(*) FROM observations o WHERE o.namespace = $1 AND o.session <> ''
			AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.namespace = o.namespace AND s.id = o.session)`,
		"memories without their current version": `SELECT count(*) FROM memories m WHERE m.namespace = $1
			AND NOT EXISTS (SELECT 1 FROM memory_versions v WHERE v.namespace = m.namespace AND v.memory_id = m.id AND v.version = m.version)`,
	}
	out := map[string]int{}
	for kind, q := range queries {
		var n int
		if err := u.db.pool.QueryRow(ctx, q, u.db.Namespace).Scan(&n); err != nil {
			return nil, fmt.Errorf("orphans: %w", err)
		}
		out[kind] = n
	}
	return out, nil
}

// Counts counts the namespace's rows as a backup holds them.
func (u Upkeep) Counts(ctx context.Context) (recall.BackupCounts, error) {
	return u.db.counts(ctx, u.db.pool)
}

func (db *DB) counts(ctx context.Context, q querier) (recall.BackupCounts, error) {
	var c recall.BackupCounts
	err := q.QueryRow(ctx, `SELECT
		(SELECT count(*) FROM memories WHERE namespace = $1),
		(SELECT count(*) FROM memory_versions WHERE namespace = $1),
		(SELECT count(*) FROM observations WHERE namespace = $1),
		(SELECT count(*) FROM sessions WHERE namespace = $1),
		(SELECT count(*) FROM memory_rollups WHERE namespace = $1),
		(SELECT count(*) FROM memory_vectors WHERE namespace = $1)`, db.Namespace).
		Scan(&c.Memories, &c.Versions, &c.Observations, &c.Sessions, &c.Rollups, &c.Vectors)
	if err != nil {
		return c, fmt.Errorf("count rows: %w", err)
	}
	return c, nil
}
