package main

import (
	"os"
	"strings"

	"github.com/recall-mem/recall/engine"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
)

func (a *app) migrateCommand() *cobra.Command {
	var o engine.MigrateOptions
	var jsonOut bool
	c := &cobra.Command{
		Use:   "migrate --to DIR|URL | --from DIR|URL",
		Short: "Copy the whole store to another backend (SQLite <-> PostgreSQL), history included",
		Long: `Copy every row of a store into another one, on the same or another backend:
memories of every status with every version (ids, numbers, times, ops and
authors kept), observations with their ids, sessions, rollups with their
sources, vectors, sync records and store facts. --to copies this store
(--store, RECALL_STORE or the nearest .recall/) to DIR (a SQLite store
directory, created if missing), FILE (a recall.db) or URL
(postgres://user@host:5432/dbname?namespace=NAME); --from copies that
store into this one.

The target must be empty, or hold an earlier copy of the same source: an
interrupted migration is finished by running it again, and rows replace
their copies by id, so nothing is duplicated. At the end both stores are
counted and checksummed kind by kind; a difference (the source was written
to during the copy) is an error. Stop agents and servers writing to the
source first.

Vectors are copied with the name of their model. If the target's config
names another embedder, run 'recall reindex' there: the copied vectors are
then replaced. Progress goes to stderr when it is a terminal.`,
		Example: `  recall migrate --to postgres://recall@db.example:5432/recall?namespace=team
  recall --store postgres://recall@db.example:5432/recall migrate --to ~/recall-copy
  recall migrate --from ~/old/.recall --json`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			var bar *progressbar.ProgressBar
			f, ok := a.stderr.(*os.File)
			tty := ok && isTerminal(f)
			var last engine.MigrateProgress
			o.Progress = func(p engine.MigrateProgress) {
				switch {
				case tty:
					// A bar per kind and phase; the check reads the
					// source, then the target.
					if bar == nil || p.Kind != last.Kind || p.Phase != last.Phase || p.Done < last.Done {
						if bar != nil {
							_ = bar.Finish()
						}
						what := "copy " + string(p.Kind)
						if p.Phase == "verify" {
							what = "check " + string(p.Kind)
						}
						bar = progressbar.NewOptions(p.Total, progressbar.OptionSetWriter(f),
							progressbar.OptionSetDescription(what), progressbar.OptionShowCount(),
							progressbar.OptionClearOnFinish())
					}
					_ = bar.Set(p.Done)
				case !tty && !jsonOut && p.Phase == "copy" && p.Done == p.Total:
					fprintf(a.stderr, "copied %d %s\n", p.Done, p.Kind)
				}
				last = p
			}
			rep, err := a.eng.Migrate(c.Context(), o)
			if bar != nil {
				_ = bar.Finish()
			}
			if rep != nil && jsonOut {
				if werr := writeJSON(a.stdout, rep); werr != nil {
					return werr
				}
			} else if rep != nil {
				a.printMigration(rep)
			}
			return err
		},
	}
	c.Flags().StringVar(&o.To, "to", "", "copy this store to DIR, FILE or URL")
	c.Flags().StringVar(&o.From, "from", "", "copy the store at DIR, FILE or URL into this one")
	c.Flags().IntVar(&o.BatchSize, "batch", 0, "rows per transaction (0: the default, 500)")
	c.Flags().BoolVar(&jsonOut, "json", false, "print what was copied and checked as JSON")
	return c
}

// printMigration reports a migration: a line per kind, then the verdict.
func (a *app) printMigration(rep *engine.MigrateReport) {
	fprintf(a.stdout, "Copied %s to %s", rep.From, rep.To)
	if rep.Resumed {
		fprintf(a.stdout, " (over an earlier copy)")
	}
	fprintf(a.stdout, "\n")
	for _, k := range rep.Kinds {
		verdict := "same"
		if !k.Match {
			verdict = "DIFFERENT"
		}
		fprintf(a.stdout, "  %-13s %7d copied  %7d source  %7d target  checksum %.12s %s\n", k.Kind, k.Copied, k.Source, k.Target, k.TargetChecksum, verdict)
	}
	if rep.Verified {
		fprintf(a.stdout, "Verified: both stores hold the same rows.\n")
	}
	switch {
	case rep.Reembed():
		fprintf(a.stdout, "The copied vectors are of %s; this store embeds with %s: run 'recall reindex' to embed it again.\n", strings.Join(rep.VectorModels, ", "), rep.TargetModel)
	case len(rep.VectorModels) > 0 && rep.TargetModel == "":
		fprintf(a.stdout, "Vectors are of %s: if the target's embedder is another model, run 'recall reindex' there.\n", strings.Join(rep.VectorModels, ", "))
	}
}
