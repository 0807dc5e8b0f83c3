package sqlite

import (
	"github.com/recall-mem/recall"
)

// ForgetService purges, sweeps and measures a store (seed 003).
type ForgetService struct {
	db *DB
}

var (
	_ recall.Purger      = (*ForgetService)(nil)
	_ recall.Sweeper     = (*ForgetService)(nil)
	_ recall.StatsReader = (*ForgetService)(nil)
)

// NewForgetService returns a ForgetService over db.
func NewForgetService(db *DB) *ForgetService { return &ForgetService{db: db} }
