package postgres

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// ForgetService removes data from the namespace, on request (purge) and
// by policy (sweep), and reports the store's statistics.
type ForgetService struct {
	db *DB
}

// NewForgetService returns a ForgetService over db.
func NewForgetService(db *DB) *ForgetService { return &ForgetService{db: db} }

// audit records a purge or a sweep without content: what ran and how much
// went.
func (tx *Tx) audit(ctx context.Context, kind, criteria string, counts map[string]int) error {
	buf, err := json.Marshal(counts)
	if err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `INSERT INTO forget_log (namespace, at, kind, criteria, counts) VALUES ($1, $2, $3, $4, $5)`,
		tx.db.Namespace, tx.now, kind, criteria, string(buf)); err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	return nil
}

// deleteObservations deletes the namespace's observations matching cond
// (over alias o, arguments in w), adds the sessions they belonged to to
// touched, and returns their ids.
func (tx *Tx) deleteObservations(ctx context.Context, touched map[string]bool, w *where) ([]int64, error) {
	rows, err := tx.Query(ctx, `DELETE FROM observations o WHERE `+w.sql()+` RETURNING o.id, o.session`, w.args...)
	type gone struct {
		id      int64
		session string
	}
	out, err := collectRows(rows, err, func(r pgx.Row) (g gone, err error) { return g, r.Scan(&g.id, &g.session) })
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(out))
	for i, g := range out {
		ids[i] = g.id
		if g.session != "" {
			touched[g.session] = true
		}
	}
	return ids, nil
}

// dropEmptySessions deletes the sessions among ids that have no
// observations left and carry no summary or learned text of their own:
// the orphan clean-up must not take a session's summary with its raw
// events.
func (tx *Tx) dropEmptySessions(ctx context.Context, ids map[string]bool) (int, error) {
	if len(ids) == 0 {
		return 0, nil
	}
	list := make([]string, 0, len(ids))
	for id := range ids {
		list = append(list, id)
	}
	tag, err := tx.Exec(ctx, `DELETE FROM sessions s WHERE s.namespace = $1 AND s.id = ANY($2) AND s.summary = '' AND s.learned = ''
		AND NOT EXISTS (SELECT 1 FROM observations o WHERE o.namespace = s.namespace AND o.session = s.id)`, tx.db.Namespace, list)
	if err != nil {
		return 0, fmt.Errorf("drop empty sessions: %w", err)
	}
	return int(tag.RowsAffected()), nil
}
