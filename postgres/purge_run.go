package postgres

import (
	"context"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/recall-mem/recall"
)

// Purge deletes the matches and their copies, writes an audit record
// without content, all in one transaction, then rewrites the tables the
// rows lived in (see secureVacuum), because on PostgreSQL a DELETE only
// marks rows dead: their bytes stay in the table's pages (and its indexes)
// until the space is reused.
func (s *ForgetService) Purge(ctx context.Context, c recall.PurgeCriteria) (*recall.PurgeReport, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	rep := &recall.PurgeReport{Target: c.Target(), Criteria: c.Describe(), Upkeep: &recall.Upkeep{}}
	err := s.db.exclusive(ctx, jobForget, func() error {
		return s.db.tx(ctx, func(tx *Tx) error {
			var ids []string
			var err error
			if c.Memories {
				ids, err = tx.purgeMemories(ctx, c, rep)
			} else {
				ids, err = tx.purgeObservations(ctx, c, rep)
			}
			if err != nil {
				return err
			}
			if err := tx.purgeCopies(ctx, c, ids, rep); err != nil {
				return err
			}
			if rep.Matched()+rep.Copies()+rep.Sessions == 0 {
				return nil
			}
			counts := map[string]int{"observations": rep.Observations, "memories": rep.Memories, "versions": rep.Versions, "sessions": rep.Sessions,
				"rollups": rep.Rollups, "session_texts": rep.SessionTexts}
			return tx.audit(ctx, "purge", rep.Criteria, counts)
		})
	})
	if err != nil {
		return nil, err
	}
	// Even with nothing left to delete the tables are rewritten: that is
	// how a purge whose rewrite failed is finished, by running it again.
	if err := s.db.secureVacuum(ctx, c.Memories, rep.Upkeep); err != nil {
		return nil, err
	}
	if rep.Matched()+rep.Copies() == 0 {
		if err := s.db.tx(ctx, func(tx *Tx) (err error) { rep.Wider, err = tx.widerPurge(ctx, c); return err }); err != nil {
			return nil, err
		}
	}
	return rep, nil
}

// purgeObservations deletes the matched observations (and the sessions
// they leave empty, or that the criteria name whole) and returns their
// ids, by which the rollups built from them are found.
func (tx *Tx) purgeObservations(ctx context.Context, c recall.PurgeCriteria, rep *recall.PurgeReport) ([]string, error) {
	w, _, err := tx.wherePurgeObservations(c)
	if err != nil {
		return nil, err
	}
	touched := map[string]bool{}
	gone, err := tx.deleteObservations(ctx, touched, w)
	if err != nil {
		return nil, fmt.Errorf("purge observations: %w", err)
	}
	ids := make([]string, len(gone))
	for i, id := range gone {
		ids[i] = strconv.FormatInt(id, 10)
	}
	rep.Observations = len(ids)
	if rep.Sessions, err = tx.dropEmptySessions(ctx, touched); err != nil {
		return nil, err
	}
	// --session and --project with nothing narrower take the session rows
	// themselves, summary included.
	narrowed := c.Type != "" || c.Search != "" || c.ObservationID != 0 || c.Until() != nil
	if narrowed || (c.Session == "" && c.Project == "") {
		return ids, nil
	}
	tag, err := tx.Exec(ctx, `DELETE FROM sessions s WHERE s.namespace = $1 AND ($2 = '' OR s.id = $2) AND ($3 = '' OR s.project = $3)
		AND NOT EXISTS (SELECT 1 FROM observations o WHERE o.namespace = s.namespace AND o.session = s.id)`, tx.db.Namespace, c.Session, c.Project)
	if err != nil {
		return nil, fmt.Errorf("purge sessions: %w", err)
	}
	rep.Sessions += int(tag.RowsAffected())
	return ids, nil
}

// purgeMemories deletes the matched memories and every version of them;
// their vectors go with them through the foreign key's cascade. It
// returns their ids, by which the rollups built from them are found.
func (tx *Tx) purgeMemories(ctx context.Context, c recall.PurgeCriteria, rep *recall.PurgeReport) ([]string, error) {
	items, err := tx.findPurgeMemories(ctx, c)
	if err != nil || len(items) == 0 {
		return nil, err
	}
	ids := make([]string, len(items))
	for i, it := range items {
		ids[i] = it.ID
	}
	if _, err := tx.Exec(ctx, `DELETE FROM memories WHERE namespace = $1 AND id = ANY($2)`, tx.db.Namespace, ids); err != nil {
		return nil, fmt.Errorf("purge memories: %w", err)
	}
	tag, err := tx.Exec(ctx, `DELETE FROM memory_versions WHERE namespace = $1 AND memory_id = ANY($2)`, tx.db.Namespace, ids)
	if err != nil {
		return nil, fmt.Errorf("purge versions: %w", err)
	}
	rep.Memories, rep.Versions = len(items), int(tag.RowsAffected())
	return ids, nil
}

// secureVacuum is the strongest removal PostgreSQL offers a database role
// short of rebuilding the cluster:
//
//   - VACUUM FULL of every table a purge deletes from rewrites it and its
//     indexes into new files and drops the old ones, so no dead row of the
//     purged text is left in the database's files (plain VACUUM would only
//     mark the space reusable, leaving the bytes in place). It locks each
//     table against every namespace's reads and writes while it runs;
//   - CHECKPOINT, when the role may run it (a superuser, or pg_checkpoint),
//     lets the server recycle the WAL segments that recorded the rows.
//
// What no database role can reach is said in docs/postgres.md: WAL kept
// for replicas (replication slots, wal_keep_size) and archives, the
// replicas' own copies, base backups and dumps, and blocks the file
// system has not yet overwritten.
func (db *DB) secureVacuum(ctx context.Context, memories bool, up *recall.Upkeep) error {
	tables := []string{"observations", "sessions", "memory_rollups", "memory_rollup_sources"}
	if memories {
		tables = append(tables, "memories", "memory_versions", "memory_vectors")
	}
	for _, t := range tables {
		if _, err := db.pool.Exec(ctx, `VACUUM (FULL) `+pgx.Identifier{t}.Sanitize()); err != nil {
			return db.wrap(recall.EINTERNAL, "purge: rewrite "+t+" (the rows are deleted; run the purge again to finish)", err)
		}
	}
	up.Vacuumed = true
	_, err := db.pool.Exec(ctx, `CHECKPOINT`)
	up.WALTruncated = err == nil
	return nil
}
