package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/spf13/cobra"
)

func (a *app) searchCommand() *cobra.Command {
	var ff filterFlags
	var limit int
	var jsonOut, explain, observations bool
	var mode, since, until, now, asOf string
	c := &cobra.Command{
		Use:   "search QUERY",
		Short: "Find the memories that best match a query",
		Long: `Find memories by relevance to QUERY. Quotes, hyphens, colons and search
operators in the query are treated as plain text.

Hybrid mode (the default) fuses full-text (BM25) matches with the nearest
passages of the vector index, lets memories recorded beside a strong match
(the next turn of a conversation) share its score, weighs up memories whose
author, project, tags or metadata name someone the query names, prefers
recent, working, pinned and confident memories a little, and keeps
near-duplicates from crowding the top. A hit always matched the query
itself; the turns around it that did not are shown indented under it (in
--json, its "context") and count toward --limit. When nothing matches, the
command says so and exits 0. --mode bm25 or vector uses one index only; when the vector
index is unavailable, hybrid quietly uses full text (--explain says so).

Time words in the query ("yesterday", "last week", "in May 2023", "2 years
ago", "since March", "recently") are read relative to --now: hits outside
that window are left out when there are hits inside it, and the words
themselves are not matched; a query of time words only lists the window,
newest first. --since and --until filter strictly and take the same words.
--as-of answers from memory as it was then.`,
		Example: `  recall search "GPU acceleration"
  recall search security --filter tags=api,auth --json
  recall search "what did we decide last week" --explain
  recall search deploy --since 2026-01-01 --until 2026-02-01 --mode bm25
  recall search "database" --as-of 2026-03-01`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			lowHeapGC()
			f, err := ff.build(c)
			if err != nil {
				return err
			}
			q := recall.SearchQuery{Text: strings.Join(args, " "), Filter: f, Limit: limit, Explain: explain, Now: a.now(), Mode: mode}
			if err := engine.CheckSearch(&q, since, until, now, asOf); err != nil {
				return err
			}
			if err := a.open(c.Context()); err != nil {
				return err
			}
			hits, obs, err := a.eng.SearchWithObservations(c.Context(), q, observations)
			if err != nil {
				return err
			}
			if jsonOut {
				out := engine.ToHitsJSON(hits)
				if observations {
					return writeJSON(a.stdout, map[string]any{"memories": out, "observations": obs})
				}
				return writeJSON(a.stdout, out)
			}
			if observations {
				if err := a.printObservations(obs); err != nil || len(hits) == 0 {
					return err
				}
				fprintf(a.stdout, "\n")
			}
			if len(hits) == 0 {
				fprintf(a.stderr, "No memories match %q. Try other words, or `recall list`.\n", q.Text)
				return nil
			}
			if explain && hits[0].Explain != nil && hits[0].Explain.Note != "" {
				fprintf(a.stdout, "note: %s\n", hits[0].Explain.Note)
			}
			w := table(a.stdout)
			fprintf(w, "SCORE\tID\tKEY\tTITLE / SNIPPET\n")
			for _, h := range hits {
				fprintf(w, "%.3f\t%s\t%s\t%s\n", h.Score, h.Memory.ID, dash(h.Memory.Key), oneLine(hitText(h), 90))
				if h.Explain != nil {
					fprintf(w, "\t\t\t%s\n", explainLine(h.Explain))
				}
				// Context: the turns around the hit, indented under it.
				for _, c := range h.Context {
					fprintf(w, "\t  %s\t%s\t  %s\n", c.Memory.ID, dash(c.Memory.Key), oneLine(hitText(c), 88))
					if c.Explain != nil {
						fprintf(w, "\t\t\t  context: %s\n", explainLine(c.Explain))
					}
				}
			}
			return w.Flush()
		},
	}
	ff.register(c)
	c.Flags().IntVar(&limit, "limit", 10, "at most `N` hits")
	c.Flags().BoolVar(&jsonOut, "json", false, "print hits as JSON")
	c.Flags().BoolVar(&explain, "explain", false, "show how each hit was scored")
	c.Flags().BoolVar(&observations, "observations", false, "also search raw observations (hook events); JSON becomes {memories, observations}")
	c.Flags().StringVar(&mode, "mode", recall.ModeHybrid, "`MODE`: hybrid, bm25 or vector")
	c.Flags().StringVar(&since, "since", "", "only memories that occurred at or after `TIME` (a date, or words: yesterday, last week)")
	c.Flags().StringVar(&until, "until", "", "only memories that occurred before `TIME` (a date, or words: the end of yesterday, last week)")
	c.Flags().StringVar(&now, "now", "", "reference `TIME` for time words in the query (default now)")
	c.Flags().StringVar(&asOf, "as-of", "", "answer from memory as it was at `TIME`")
	return c
}

// hitText is a hit's title and snippet, for one table row.
func hitText(h *recall.SearchHit) string {
	text := h.Memory.Title
	if h.Snippet != "" {
		if text != "" {
			text += ": "
		}
		text += recall.WithoutTitle(h.Snippet, h.Memory.Title)
	}
	return text
}

// explainLine shows how a hit was scored, adjustments in a stable order.
func explainLine(e *recall.HitExplain) string {
	s := fmt.Sprintf("bm25=%.3f", e.BM25)
	if e.BM25Rank > 0 {
		s += fmt.Sprintf(" (#%d)", e.BM25Rank)
	}
	s += fmt.Sprintf(" vector=%.3f", e.Vector)
	if e.VectorRank > 0 {
		s += fmt.Sprintf(" (#%d)", e.VectorRank)
	}
	s += fmt.Sprintf(" fused=%.4f", e.Fused)
	names := make([]string, 0, len(e.Adjustments))
	for k := range e.Adjustments {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if strings.HasPrefix(k, "+") || strings.HasPrefix(k, "-") { // an additive share, or an amount taken off
			s += fmt.Sprintf(" %s=%.3f", k, e.Adjustments[k])
		} else {
			s += fmt.Sprintf(" %s×%.3f", k, e.Adjustments[k])
		}
	}
	if len(e.Sources) > 0 {
		s += " sources=" + strings.Join(e.Sources, ",")
	}
	return s
}
