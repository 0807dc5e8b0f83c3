package main

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/rollup"
	"github.com/recall-mem/recall/sqlite"
	"github.com/spf13/cobra"
)

// benchStore is one temporary store of the rollup benchmark.
type benchStore struct {
	db  *sqlite.DB
	mem *sqlite.MemoryService
	obs *sqlite.ObservationService
	rs  *sqlite.RollupService
}

func openBenchStore(dir string, now *time.Time) (*benchStore, error) {
	db := sqlite.NewDB(filepath.Join(dir, engine.DBFile))
	db.Now = func() time.Time { return *now }
	if err := db.Open(); err != nil {
		return nil, err
	}
	return &benchStore{db: db, mem: sqlite.NewMemoryService(db), obs: sqlite.NewObservationService(db),
		rs: sqlite.NewRollupService(db, &rollup.Policy{Loc: time.UTC})}, nil
}

// benchSample is the size of both stores on one day.
type benchSample struct {
	Day               int   `json:"day"`
	RawRows           int   `json:"raw_rows"`
	Rollups           int   `json:"rollups"`
	LiveBytes         int64 `json:"live_bytes"`
	RawRowsNoRollup   int   `json:"raw_rows_without_rollups"`
	LiveBytesNoRollup int64 `json:"live_bytes_without_rollups"`
}

// benchBackfill is one run over a whole history never rolled up.
type benchBackfill struct {
	Buckets   int     `json:"buckets"`
	Rollups   int     `json:"rollups"`
	Compacted int     `json:"compacted"`
	Seconds   float64 `json:"seconds"`
}

// benchContext is what a context carries for the tracked keys.
type benchContext struct {
	Tokens  int `json:"tokens"`  // estimate: bytes / 4
	Stale   int `json:"stale"`   // items that show a value other than the current one as current
	Current int `json:"current"` // keys whose current value is shown
	Items   int `json:"items"`
}

type benchRollupResult struct {
	Days          int                     `json:"days"`
	Memories      int                     `json:"memories"`
	Observations  int                     `json:"observations"`
	Keys          int                     `json:"keys"`
	RetentionDays int                     `json:"raw_retention_days"`
	Tokens        string                  `json:"tokens"`
	Search        map[string]benchContext `json:"search"` // per-key search, top 10: without / with rollups
	Inject        map[string]benchContext `json:"inject"` // no query: every raw entry / the rollups section
	TokenChange   float64                 `json:"search_token_change"`
	Samples       []benchSample           `json:"samples"`
	Backfill      benchBackfill           `json:"backfill"`
	Seconds       float64                 `json:"seconds"`
}

func (a *app) benchRollupCommand() *cobra.Command {
	var days, retention int
	var jsonOut bool
	c := &cobra.Command{
		Use:   "rollup",
		Short: "Measure what rollups save: context tokens, stale values, store size",
		Long: `Generate a deterministic stream of DAYS days (preferences that change,
facts that repeat, unkeyed notes and command observations as noise) into two
fresh temporary stores. One runs the rollup job every day and sweeps
compacted raw entries older than the raw retention; the other keeps raw
entries only. Then it measures, for every tracked key:

  search  the top 10 hits for the key's name, counting the hits about it;
  inject  the context that carries every key with no query: every raw
          entry about it without rollups, the rollups section with them;

reporting tokens (estimate: bytes / 4), stale values shown as current, and
whether the current value is there; and the raw row count and live bytes
of both stores over time.`,
		Example: `  recall bench rollup
  recall bench rollup --days 365 --json`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if days < 14 {
				return usagef("--days must be at least 14")
			}
			res, err := a.benchRollup(c.Context(), days, retention)
			if err != nil {
				return err
			}
			if jsonOut {
				return writeJSON(a.stdout, res)
			}
			a.printBenchRollup(res)
			return nil
		},
	}
	c.Flags().IntVar(&days, "days", 180, "generate `N` days of history")
	c.Flags().IntVar(&retention, "retention-days", 30, "sweep compacted raw entries older than `N` days")
	c.Flags().BoolVar(&jsonOut, "json", false, "print JSON")
	return c
}

func (a *app) benchRollup(ctx context.Context, days, retention int) (*benchRollupResult, error) {
	began := time.Now()
	dir, err := os.MkdirTemp("", "recall-bench-rollup-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	start := time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC) // a Monday
	now := start
	with, err := openBenchStore(filepath.Join(dir, "with"), &now)
	if err != nil {
		return nil, err
	}
	defer with.db.Close()
	without, err := openBenchStore(filepath.Join(dir, "without"), &now)
	if err != nil {
		return nil, err
	}
	defer without.db.Close()

	stream := newBenchStream(start, days, 7)
	// The same pruning as the defaults of [rollup] keep_4h_days and
	// keep_daily_days: 4h rollups live as long as raw entries.
	day := 24 * time.Hour
	keep := map[string]time.Duration{recall.Bucket4h: time.Duration(retention) * day, recall.BucketDaily: engine.DefaultKeepDailyDays * day}
	res := &benchRollupResult{Days: days, RetentionDays: retention, Keys: len(stream.keys), Tokens: "estimate: bytes / 4"}
	for d := 0; d < days; d++ {
		ms, obs := stream.day(d)
		res.Memories += len(ms)
		res.Observations += len(obs)
		for _, s := range []*benchStore{with, without} {
			if _, err := s.mem.ImportMemories(ctx, clones(ms)); err != nil {
				return nil, err
			}
			if err := s.obs.RecordObservations(ctx, clones(obs)); err != nil {
				return nil, err
			}
		}
		now = start.AddDate(0, 0, d+1)
		if _, err := with.rs.RunRollups(ctx, recall.RollupRun{Now: now, Keep: keep}); err != nil {
			return nil, err
		}
		if _, err := with.db.SweepCompacted(ctx, now.AddDate(0, 0, -retention)); err != nil {
			return nil, err
		}
		if (d+1)%30 == 0 || d == days-1 {
			sample, err := benchSampleOf(ctx, d+1, with, without)
			if err != nil {
				return nil, err
			}
			res.Samples = append(res.Samples, sample)
		}
	}
	if err := a.benchContexts(ctx, res, stream, now, with, without); err != nil {
		return nil, err
	}
	// The "without" store never ran the job: roll its whole history up in
	// one run, as a store upgraded to rollups would.
	t0 := time.Now()
	rep, err := without.rs.RunRollups(ctx, recall.RollupRun{Now: now, Keep: keep})
	if err != nil {
		return nil, err
	}
	res.Backfill = benchBackfill{Seconds: time.Since(t0).Seconds(), Compacted: rep.Compacted}
	for _, n := range rep.Buckets {
		res.Backfill.Buckets += n
	}
	for _, n := range rep.Rollups {
		res.Backfill.Rollups += n
	}
	res.Seconds = time.Since(began).Seconds()
	return res, nil
}

func benchSampleOf(ctx context.Context, day int, with, without *benchStore) (benchSample, error) {
	s := benchSample{Day: day}
	count := func(st *benchStore) (raw, rolled int, bytes int64, err error) {
		stats, err := st.rs.TierStats(ctx)
		if err != nil {
			return 0, 0, 0, err
		}
		for _, t := range stats {
			if t.Tier == "raw" {
				raw += t.Count
			} else {
				rolled += t.Count
			}
		}
		bytes, err = st.db.LiveBytes(ctx)
		return raw, rolled, bytes, err
	}
	var err error
	if s.RawRows, s.Rollups, s.LiveBytes, err = count(with); err != nil {
		return s, err
	}
	s.RawRowsNoRollup, _, s.LiveBytesNoRollup, err = count(without)
	return s, err
}

// clones copies every element so that each store gets its own values
// (writes fill defaults and ids in place).
func clones[T any](xs []*T) []*T {
	out := make([]*T, len(xs))
	for i, x := range xs {
		cp := *x
		out[i] = &cp
	}
	return out
}

func (a *app) printBenchRollup(r *benchRollupResult) {
	fprintf(a.stdout, "recall bench rollup: %d days, %d memories + %d observations, %d tracked keys, raw retention %d days\n\n",
		r.Days, r.Memories, r.Observations, r.Keys, r.RetentionDays)
	w := table(a.stdout)
	fprintf(w, "CONTEXT\tTOKENS~\tSTALE SHOWN\tCURRENT SHOWN\tITEMS\n")
	for _, row := range []struct{ name, scen, side string }{
		{"search, without rollups", "search", "without"}, {"search, with rollups", "search", "with"},
		{"inject, without rollups", "inject", "without"}, {"inject, with rollups", "inject", "with"},
	} {
		m := r.Search
		if row.scen == "inject" {
			m = r.Inject
		}
		c := m[row.side]
		fprintf(w, "%s\t%d\t%d\t%d/%d\t%d\n", row.name, c.Tokens, c.Stale, c.Current, r.Keys, c.Items)
	}
	w.Flush()
	fprintf(a.stdout, "search tokens with rollups: %+.0f%%\n\n", 100*r.TokenChange)
	w = table(a.stdout)
	fprintf(w, "DAY\tRAW ROWS\tROLLUPS\tLIVE BYTES\tRAW ROWS (NO ROLLUPS)\tLIVE BYTES (NO ROLLUPS)\n")
	for _, s := range r.Samples {
		fprintf(w, "%d\t%d\t%d\t%d\t%d\t%d\n", s.Day, s.RawRows, s.Rollups, s.LiveBytes, s.RawRowsNoRollup, s.LiveBytesNoRollup)
	}
	w.Flush()
	b := r.Backfill
	fprintf(a.stdout, "\nBackfill of the raw-only store in one run: %d buckets, %d rollups, %d raw entries compacted in %.2fs (%.0f buckets/s).\n",
		b.Buckets, b.Rollups, b.Compacted, b.Seconds, float64(b.Buckets)/max(b.Seconds, 1e-9))
	fprintf(a.stdout, "Tokens are estimated as bytes / 4. Took %.1fs.\n", r.Seconds)
}
