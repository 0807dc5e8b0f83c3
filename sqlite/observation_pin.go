package sqlite

import (
	"context"
	"fmt"

	"github.com/recall-mem/recall"
)

var _ recall.ObservationPinner = (*ObservationService)(nil)

// PinObservation sets or clears an observation's landmark flag, which
// exempts it from retention sweeps (seed 003, Q1).
func (s *ObservationService) PinObservation(ctx context.Context, id int64, pinned bool) error {
	return s.db.update(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE observations SET pinned = ? WHERE id = ?`, pinned, id)
		if err != nil {
			return fmt.Errorf("pin observation: %w", err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return recall.Errorf(recall.ENOTFOUND, "No observation %d: list observations with 'recall timeline' or 'recall search --observations'.", id)
		}
		return nil
	})
}
