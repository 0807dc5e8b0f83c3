package main

import (
	"strings"
	"time"

	"github.com/recall-mem/recall"
	"github.com/spf13/cobra"
)

// hitJSON is a compact search hit: enough to choose, with get for the rest.
type hitJSON struct {
	ID         string             `json:"id"`
	Key        string             `json:"key,omitempty"`
	Collection string             `json:"collection"`
	Type       string             `json:"type,omitempty"`
	Title      string             `json:"title,omitempty"`
	Tier       string             `json:"tier"`
	Score      float64            `json:"score"`
	Snippet    string             `json:"snippet,omitempty"`
	OccurredAt time.Time          `json:"occurred_at"`
	Explain    *recall.HitExplain `json:"explain,omitempty"`
}

func (a *app) searchCommand() *cobra.Command {
	var ff filterFlags
	var limit int
	var jsonOut, explain, observations bool
	c := &cobra.Command{
		Use:   "search QUERY",
		Short: "Find the memories that best match a query",
		Long: `Find memories by relevance to QUERY. Quotes, hyphens, colons and search
operators in the query are treated as plain text.`,
		Example: `  recall search "GPU acceleration"
  recall search security --filter tags=api,auth --json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			f, err := ff.build(c)
			if err != nil {
				return err
			}
			if err := a.open(c.Context()); err != nil {
				return err
			}
			q := recall.SearchQuery{Text: strings.Join(args, " "), Filter: f, Limit: limit, Explain: explain, Now: a.now()}
			hits, err := a.search.Search(c.Context(), q)
			if err != nil {
				return err
			}
			var obs []obsJSON
			if observations {
				if obs, err = a.searchObservations(c.Context(), q.Text, limit); err != nil {
					return err
				}
			}
			if jsonOut {
				out := make([]hitJSON, 0, len(hits))
				for _, h := range hits {
					m := h.Memory
					out = append(out, hitJSON{ID: m.ID, Key: m.Key, Collection: m.Collection, Type: m.Type, Title: m.Title,
						Tier: m.Tier, Score: h.Score, Snippet: h.Snippet, OccurredAt: m.OccurredAt, Explain: h.Explain})
				}
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
				fprintf(a.stderr, "No matches for %q. Try fewer or other words, or `recall list`.\n", q.Text)
				return nil
			}
			w := table(a.stdout)
			fprintf(w, "SCORE\tID\tKEY\tTITLE / SNIPPET\n")
			for _, h := range hits {
				text := h.Memory.Title
				if h.Snippet != "" {
					if text != "" {
						text += ": "
					}
					text += h.Snippet
				}
				fprintf(w, "%.3f\t%s\t%s\t%s\n", h.Score, h.Memory.ID, dash(h.Memory.Key), oneLine(text, 90))
				if h.Explain != nil {
					e := h.Explain
					fprintf(w, "\t\t\tbm25=%.3f (#%d) vector=%.3f (#%d) fused=%.4f %v\n", e.BM25, e.BM25Rank, e.Vector, e.VectorRank, e.Fused, e.Adjustments)
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
	return c
}
