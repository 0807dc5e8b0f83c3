package postgres

import (
	"context"
	"fmt"
)

// Jobs that run one at a time per namespace, across every process and
// machine using the database: each takes a PostgreSQL advisory lock on
// (hashtext(namespace), job) for as long as it runs. The two-key form
// keeps them apart from the one-key locks of migrations and keys.
const (
	jobRollups = 1 // a rollup run, over many transactions
	jobForget  = 2 // purges and sweeps, which delete
	jobTiers   = 3 // a sync or maintenance step of the managed files
)

// exclusive runs fn holding the job's lock, waiting for another holder to
// finish. The lock is held by one connection of the pool for fn's whole
// run, so fn may commit many transactions under it.
func (db *DB) exclusive(ctx context.Context, job int32, fn func() error) error {
	conn, err := db.pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("postgres: lock: %w", err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock(hashtext($1), $2)`, db.Namespace, job); err != nil {
		return fmt.Errorf("postgres: lock: %w", err)
	}
	defer func() {
		// Unlock even when ctx has ended; a connection that cannot unlock
		// is closed, which releases the lock with the session.
		if _, err := conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock(hashtext($1), $2)`, db.Namespace, job); err != nil {
			conn.Conn().Close(context.WithoutCancel(ctx)) //nolint:errcheck // closing is the fallback
		}
	}()
	return fn()
}

// lockJob takes the job's lock until tx ends, for a job that is one
// transaction.
func (tx *Tx) lockJob(ctx context.Context, job int32) error {
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext($1), $2)`, tx.db.Namespace, job); err != nil {
		return fmt.Errorf("postgres: lock: %w", err)
	}
	return nil
}
