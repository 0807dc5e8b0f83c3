package sqlite_test

import (
	"context"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/sqlite"
)

// A rollup's sources are linked by one statement, however many there are,
// and every source is linked once: each observation to its bucket's
// rollup, each rolled finer rollup to the coarser one it went into.
func TestRunRollups_LinksSourcesInOneStatement(t *testing.T) {
	ctx := context.Background()
	db, s := seededStore(t)
	before := sqlite.LinkStatements()
	rep := mustRun(t, s, recall.RollupRun{Now: day0.AddDate(0, 3, 0)})
	written := 0
	for _, n := range rep.Rollups {
		written += n
	}
	if n := sqlite.LinkStatements() - before; n != int64(written) {
		t.Errorf("link statements = %d; want %d, one per rollup written", n, written)
	}

	obs, err := db.Strings(ctx, `SELECT CAST(id AS TEXT) FROM observations ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	linked, err := db.Strings(ctx, `SELECT source_id FROM memory_rollup_sources WHERE source_kind = 'observation' ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(linked, ",") != strings.Join(obs, ",") {
		t.Errorf("observations linked = %v; want each of %v once", linked, obs)
	}
	rolled, err := db.Strings(ctx, `SELECT id FROM memory_rollups WHERE rolled_at IS NOT NULL ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	linked, err = db.Strings(ctx, `SELECT source_id FROM memory_rollup_sources WHERE source_kind = 'rollup' ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	if len(rolled) == 0 || strings.Join(linked, ",") != strings.Join(rolled, ",") {
		t.Errorf("rollups linked = %v; want each rolled rollup once: %v", linked, rolled)
	}
}
