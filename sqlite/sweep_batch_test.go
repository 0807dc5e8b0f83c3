package sqlite

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
)

var sweepNow = time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)

// sweepPolicy expires commands after 30 days and rolled-up observations
// after 7.
var sweepPolicy = recall.RetentionPolicy{Enabled: true, Days: map[string]int{recall.ObsCommand: 30}, CompactedDays: 7}

// sweepFixture is a store whose sweep deletes more than two batches:
// expired commands and rolled-up observations spread over sessions, some
// of which keep a recent observation.
func sweepFixture(t *testing.T) *DB {
	t.Helper()
	db := NewDB(filepath.Join(t.TempDir(), "recall.db"))
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	var obs []*recall.Observation
	for i := range 2*sweepBatch + 37 {
		o := &recall.Observation{At: sweepNow.AddDate(0, 0, -40).Add(time.Duration(i) * time.Minute), Type: recall.ObsCommand,
			Session: fmt.Sprintf("s%d", i/10), Content: fmt.Sprintf("make target%d", i)}
		if i%3 == 0 {
			o.Type, o.Status = recall.ObsFileRead, recall.StatusCompacted
		}
		obs = append(obs, o)
	}
	for i := 0; i < 2*sweepBatch/10; i += 4 { // sessions that keep something
		obs = append(obs, &recall.Observation{At: sweepNow.AddDate(0, 0, -1), Type: recall.ObsCommand, Session: fmt.Sprintf("s%d", i), Content: "make recent"})
	}
	if err := NewObservationService(db).RecordObservations(context.Background(), obs); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i := 0; i <= (2*sweepBatch+37)/10; i++ {
		if _, err := db.write.ExecContext(ctx, `INSERT OR IGNORE INTO sessions (id, started_at) VALUES (?, ?)`, fmt.Sprintf("s%d", i), ms(sweepNow.AddDate(0, 0, -41))); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

// sweepState is what a sweep leaves, as comparable text: the
// observations, the sessions, what the full-text index finds, and the
// audit rows' counts.
func sweepState(t *testing.T, db *DB) string {
	t.Helper()
	var b strings.Builder
	for _, q := range []string{
		`SELECT group_concat(id) FROM (SELECT id FROM observations ORDER BY id)`,
		`SELECT group_concat(id) FROM (SELECT id FROM sessions ORDER BY id)`,
		`SELECT group_concat(rowid) FROM (SELECT rowid FROM observations_fts WHERE observations_fts MATCH 'make' ORDER BY rowid)`,
		`SELECT group_concat(counts, ' | ') FROM (SELECT counts FROM forget_log WHERE kind = 'sweep' ORDER BY id)`,
	} {
		var s *string
		if err := db.write.QueryRow(q).Scan(&s); err != nil {
			t.Fatal(err)
		}
		if s != nil {
			b.WriteString(*s)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// A sweep deletes in transactions of at most sweepBatch observations, and
// ends where one transaction would have: the same observations and
// sessions left, the same full-text matches, one audit row with the
// whole sweep's counts, the report of a dry run.
func TestSweep_DeletesInBoundedTransactions(t *testing.T) {
	ctx := context.Background()
	one := sweepFixture(t)
	dry, err := NewForgetService(one).Sweep(ctx, sweepPolicy, sweepNow, true)
	if err != nil {
		t.Fatal(err)
	}
	if dry.Deleted <= 2*sweepBatch || dry.Sessions == 0 {
		t.Fatalf("the fixture's sweep deletes %d observations and %d sessions; want more than two batches and some sessions", dry.Deleted, dry.Sessions)
	}
	// One transaction, as a sweep was before it was bounded.
	sw := &sweepRun{rep: &recall.SweepReport{ByType: map[string]int{}}, policy: sweepPolicy, now: sweepNow, auditID: -1}
	if err := one.update(ctx, func(tx *Tx) error {
		if err := sw.all(ctx, tx, -1); err != nil {
			return err
		}
		if err := sw.audit(ctx, tx); err != nil {
			return err
		}
		_, err := compactFTS(ctx, tx, "observations_fts", sw.rep.Deleted, false)
		return err
	}); err != nil {
		t.Fatal(err)
	}

	db := sweepFixture(t)
	count := func() int {
		var n int
		if err := db.read.QueryRow(`SELECT COUNT(*) FROM observations`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	var most, turns int
	db.BeforeWrite = func(context.Context) (func(), error) {
		before := count()
		turns++
		return func() { most = max(most, before-count()) }, nil
	}
	rep, err := NewForgetService(db).Sweep(ctx, sweepPolicy, sweepNow, false)
	if err != nil {
		t.Fatal(err)
	}
	if most > sweepBatch || turns < 3 {
		t.Errorf("%d transactions deleted at most %d observations each; want several of at most %d", turns, most, sweepBatch)
	}
	if rep.Deleted != dry.Deleted || rep.Compacted != dry.Compacted || rep.Sessions != dry.Sessions || fmt.Sprint(rep.ByType) != fmt.Sprint(dry.ByType) {
		t.Errorf("report %+v; want the dry run's %+v", rep, dry)
	}
	if rep.Upkeep == nil || rep.Upkeep.FTS != "" && rep.Upkeep.FTS != "rebuild" {
		t.Errorf("upkeep %+v", rep.Upkeep)
	}
	if got, want := sweepState(t, db), sweepState(t, one); got != want {
		t.Errorf("after the bounded sweep:\n%s\nwant, as one transaction leaves it:\n%s", got, want)
	}
}

// A sweep stopped between batches keeps what they deleted, with an audit
// row that counts it; the next sweep deletes the rest and leaves what an
// uninterrupted one does, with a second audit row for its share.
func TestSweep_StoppedSweepResumes(t *testing.T) {
	ctx := context.Background()
	whole := sweepFixture(t)
	full, err := NewForgetService(whole).Sweep(ctx, sweepPolicy, sweepNow, false)
	if err != nil {
		t.Fatal(err)
	}

	db := sweepFixture(t)
	stop := errors.New("stopped")
	turns := 0
	db.BeforeWrite = func(context.Context) (func(), error) {
		if turns++; turns > 2 {
			return nil, stop
		}
		return func() {}, nil
	}
	if _, err := NewForgetService(db).Sweep(ctx, sweepPolicy, sweepNow, false); !errors.Is(err, stop) {
		t.Fatalf("stopped sweep returned %v", err)
	}
	var counts string
	if err := db.write.QueryRow(`SELECT counts FROM forget_log WHERE kind = 'sweep'`).Scan(&counts); err != nil {
		t.Fatal(err)
	}
	var c map[string]int
	if err := json.Unmarshal([]byte(counts), &c); err != nil || c["deleted"] != 2*sweepBatch {
		t.Fatalf("the stopped sweep's audit row says %s (%v); want the two batches' %d deletions", counts, err, 2*sweepBatch)
	}
	db.BeforeWrite = nil
	rest, err := NewForgetService(db).Sweep(ctx, sweepPolicy, sweepNow, false)
	if err != nil {
		t.Fatal(err)
	}
	if rest.Deleted != full.Deleted-2*sweepBatch {
		t.Errorf("the resumed sweep deleted %d; want the %d left", rest.Deleted, full.Deleted-2*sweepBatch)
	}
	got, want := strings.SplitN(sweepState(t, db), "\n", 4), strings.SplitN(sweepState(t, whole), "\n", 4)
	if strings.Join(got[:3], "\n") != strings.Join(want[:3], "\n") {
		t.Errorf("after the resumed sweep:\n%s\nwant, as one sweep leaves it:\n%s", strings.Join(got[:3], "\n"), strings.Join(want[:3], "\n"))
	}
	var rows, deleted int
	if err := db.write.QueryRow(`SELECT COUNT(*), SUM(counts ->> 'deleted') FROM forget_log WHERE kind = 'sweep'`).Scan(&rows, &deleted); err != nil {
		t.Fatal(err)
	}
	if rows != 2 || deleted != full.Deleted {
		t.Errorf("%d audit rows counting %d deletions; want 2 counting %d", rows, deleted, full.Deleted)
	}
}
