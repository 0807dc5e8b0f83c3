package main

import (
	"os"

	"github.com/recall-mem/recall"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
)

func (a *app) reindexCommand() *cobra.Command {
	var all, status, jsonOut bool
	c := &cobra.Command{
		Use:   "reindex",
		Short: "Embed every memory whose vectors are missing, stale or from another model",
		Long: `Embed the memories that have no vectors yet, whose vectors are older than
their last change, or whose vectors were made by another embedding model, with
the embedder configured in [retrieval]. Run it after changing the embedder or
model, or to catch up after a remote provider was unreachable (writes never
wait for a remote provider: they are queued).

Progress goes to stderr when it is a terminal. An interrupted reindex keeps
what it did; running it again continues. --status only reports: the
configured and stored models, and how many memories are up to date or queued.`,
		Example: `  recall reindex
  recall reindex --status
  recall reindex --all --json`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if err := a.open(c.Context()); err != nil {
				return err
			}
			if status {
				return a.reindexStatus(c, jsonOut)
			}
			opts := recall.ReindexOptions{All: all}
			var bar *progressbar.ProgressBar
			if f, ok := a.stderr.(*os.File); ok && isTerminal(f) {
				opts.Progress = func(done, total int) {
					if bar == nil {
						bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(f),
							progressbar.OptionSetDescription("embedding"), progressbar.OptionShowCount(),
							progressbar.OptionClearOnFinish())
					}
					_ = bar.Set(done)
				}
			}
			res, err := a.eng.Reindex(c.Context(), opts)
			if bar != nil {
				_ = bar.Finish()
			}
			if err != nil {
				return err
			}
			st, err := a.eng.ReindexStatus(c.Context())
			if err != nil {
				return err
			}
			if jsonOut {
				return writeJSON(a.stdout, map[string]any{"reindex": res, "stats": st})
			}
			fprintf(a.stdout, "Embedded %d of %d memories with %s (%d dimensions).\n", res.Embedded, res.Total, res.Model, res.Dim)
			fprintf(a.stdout, "%d memories, %d up to date, %d passages, %d queued.\n", st.Memories, st.Embedded, st.Vectors, st.Queued)
			return nil
		},
	}
	c.Flags().BoolVar(&all, "all", false, "re-embed every memory, even up-to-date ones")
	c.Flags().BoolVar(&status, "status", false, "report the state of the vectors; embed nothing")
	c.Flags().BoolVar(&jsonOut, "json", false, "print counts as JSON")
	return c
}

// reindexStatus prints the vector counts and whether a reindex is due.
func (a *app) reindexStatus(c *cobra.Command, jsonOut bool) error {
	st, err := a.eng.ReindexStatus(c.Context())
	if err != nil {
		return err
	}
	if jsonOut {
		return writeJSON(a.stdout, st)
	}
	stored := st.StoredModel
	if stored == "" {
		stored = "(none yet)"
	}
	fprintf(a.stdout, "Embedder: %s; stored vectors: %s.\n", st.Model, stored)
	fprintf(a.stdout, "%d memories, %d up to date, %d passages, %d queued (%d failing).\n", st.Memories, st.Embedded, st.Vectors, st.Queued, st.Failing)
	if st.LastError != "" {
		fprintf(a.stdout, "Last error: %s\n", st.LastError)
	} else if st.ProviderError != "" {
		fprintf(a.stdout, "The provider's last error: %s\n", st.ProviderError)
	}
	if st.Model == "none" {
		fprintf(a.stdout, "No embedder is configured: search is full-text only.\n")
	} else if st.StoredModel != "" && st.StoredModel != st.Model {
		fprintf(a.stdout, "Embedding model changed from %s to %s: run `recall reindex`.\n", st.StoredModel, st.Model)
	} else if st.Embedded < st.Memories {
		fprintf(a.stdout, "%d memories need embedding: run `recall reindex`.\n", st.Memories-st.Embedded)
	}
	return nil
}
