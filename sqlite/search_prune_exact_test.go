package sqlite

import (
	"cmp"
	"context"
	"encoding/json"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/internal/synth"
)

// pruneExactEnv names a kept benchmark store's recall.db (a copy: a newer
// binary migrates it): TestPruneExact then checks, for the benchmark's
// questions, that the pruned full-text search returns what the one
// statement over all of the expression's matches gives, on a real store
// rather than the property tests' small random ones.
// RECALL_PRUNE_EXACT_QUERIES sets the questions (1,000) and
// RECALL_PRUNE_EXACT_OUT a file to write each question's line to.
const pruneExactEnv = "RECALL_PRUNE_EXACT_STORE"

// pruneExact is one question's line of TestPruneExact at one limit.
type pruneExact struct {
	Q      int      `json:"q"`
	Limit  int      `json:"limit"`
	Terms  []string `json:"terms"`
	Counts []int    `json:"counts"`
	From   int64    `json:"from"`
	// Levels says the search scored by levels (tried pruning), not the
	// whole expression at once.
	Levels bool `json:"levels"`
	// Splits is how many forced first levels were checked besides the
	// search's own choice.
	Splits int `json:"splits"`
	// Tied is how many rows of the whole ranking tie with the limit-th
	// from the limit on: then which of them are hits depends on the
	// memories' ids, which are random, so two stores of one corpus may
	// differ there.
	Tied int    `json:"tied"`
	Hits string `json:"hits"`
}

// TestPruneExact runs each question's search at the limits 10 and 100
// (the ranker's candidates) and checks, bit for bit, that
//
//   - Search's hits, with no filter and with two filters (one that makes
//     the window grow), are the first limit that pass, by score then id,
//     of the window one statement over the whole expression ranks (every
//     match scored: FTS5's ORDER BY over all of them), loaded whole
//     (searchWhole);
//   - forced to start at every split of the kept words, the ranking's
//     exact rows and then its whole window are that statement's.
func TestPruneExact(t *testing.T) {
	s, _, queries := openKeptStore(t, pruneExactEnv, "RECALL_PRUNE_EXACT_QUERIES", 1000)
	ctx := context.Background()
	corpus := synth.New(1, synth.DefaultVocab)
	where, args, err := whereMemories(recall.MemoryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	// No filter; one a fiftieth of the memories pass (the bench's tags
	// are t0 to t49), so the window grows; and the newer half by
	// occurred_at, as a question's time window filters.
	since := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Add(50000 * 10 * time.Minute)
	filters := []recall.MemoryFilter{{}, {Fields: map[string][]string{"tags": {"t7"}}}, {Since: &since}}
	var out []pruneExact
	pruned, splits, tied, searches := 0, 0, 0, 0
	for q := range queries {
		text, _ := corpus.Query(q, 100000)
		m, err := s.matchExpr(ctx, text)
		if err != nil || m.expr == "" {
			t.Fatalf("%q: %+v %v", text, m, err)
		}
		for _, limit := range []int{10, 100} {
			window := limit + limit/4 + 8
			whole, err := s.rankExpr(ctx, m.expr, m.from, window)
			if err != nil {
				t.Fatal(err)
			}
			line := pruneExact{Q: q, Limit: limit, Terms: m.terms, Counts: m.counts, From: m.from}
			for fi, f := range filters {
				got, err := s.Search(ctx, recall.SearchQuery{Text: text, Limit: limit, Filter: f})
				if err != nil {
					t.Fatal(err)
				}
				want, err := s.searchWhole(ctx, m, f, limit)
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != len(want) {
					t.Fatalf("#%d %q (%s) limit %d filter %d: %d hits, want %d", q, text, m.expr, limit, fi, len(got), len(want))
				}
				for i := range want {
					if got[i].Memory.ID != want[i].Memory.ID || got[i].Score != want[i].Score {
						t.Errorf("#%d %q (%s) limit %d filter %d: hit %d is %s %v, want %s %v", q, text, m.expr, limit, fi, i,
							got[i].Memory.ID, got[i].Score, want[i].Memory.ID, want[i].Score)
					}
					if fi == 0 {
						line.Hits += got[i].Memory.ID + ":" + strconv.FormatFloat(got[i].Score, 'g', -1, 64) + " "
					}
				}
				searches++
			}
			w, err := s.searchWindow(ctx, m, where, args, window, limit, true, false)
			if err != nil {
				t.Fatal(err)
			}
			line.Levels = len(w.exprs) > 0 && w.exprs[len(w.exprs)-1] != m.expr
			for k := 1; m.prunable() && k < len(m.terms); k++ {
				r := &ranking{m: m, window: window, first: k, try: true}
				if err := s.score(ctx, r, min(limit, window)); err != nil {
					t.Fatal(err)
				}
				if n := r.exact(); !slices.Equal(r.rows[:n], whole[:min(n, len(whole))]) || n < min(limit, len(whole)) && !r.all {
					t.Errorf("#%d %s split %d limit %d: %d exact rows %v, want the first of %v", q, m.expr, k, limit, n, r.rows[:n], whole)
				}
				if err := s.score(ctx, r, window); err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(r.rows, whole) {
					t.Errorf("#%d %s split %d window %d: %v, want %v", q, m.expr, k, window, r.rows, whole)
				}
				line.Splits++
			}
			for i := limit; i < len(whole) && whole[i].rank == whole[limit-1].rank; i++ {
				line.Tied++
			}
			if line.Levels {
				pruned++
			}
			if line.Tied > 0 {
				tied++
			}
			splits += line.Splits
			out = append(out, line)
		}
	}
	t.Logf("%d questions at limits 10 and 100, %d searches with and without filters; unfiltered: scored %d by levels, %d forced splits checked, %d tied past the limit", queries, searches, pruned, splits, tied)
	if p := os.Getenv("RECALL_PRUNE_EXACT_OUT"); p != "" {
		b, err := json.Marshal(out)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// searchWhole is what Search returns when every window is scored at once
// by one statement and loaded whole: the first limit of the window's
// rows that pass f, by score then id, the window growing as Search's
// does until limit pass or the matches run out.
func (s *MemoryService) searchWhole(ctx context.Context, m ftsMatch, f recall.MemoryFilter, limit int) ([]*recall.SearchHit, error) {
	where, args, err := whereMemories(f)
	if err != nil {
		return nil, err
	}
	for window := limit + limit/4 + 8; ; window *= 4 {
		ranked, err := s.rankExpr(ctx, m.expr, m.from, window)
		if err != nil {
			return nil, err
		}
		all, err := s.loadHits(ctx, ranked, where, args)
		if err != nil {
			return nil, err
		}
		slices.SortFunc(all, func(a, b *recall.SearchHit) int {
			if a.Score != b.Score {
				return -cmp.Compare(a.Score, b.Score)
			}
			return cmp.Compare(a.Memory.ID, b.Memory.ID)
		})
		if len(all) >= limit || len(ranked) < window {
			return all[:min(len(all), limit)], nil
		}
	}
}

// openKeptStore opens the kept benchmark store (its recall.db) that the
// variable env names, closed when the test ends, and reads from
// queriesEnv how many of the benchmark's questions to ask (def); it
// skips the test when env names no store.
func openKeptStore(t *testing.T, env, queriesEnv string, def int) (s *MemoryService, path string, queries int) {
	t.Helper()
	path = os.Getenv(env)
	if path == "" {
		t.Skip(env + " names no kept benchmark store")
	}
	return figuresService(t, path), path, envCount(t, queriesEnv, def)
}
