package main

import (
	"time"

	"github.com/recall-mem/recall"
	"github.com/spf13/cobra"
)

// latestRollups is how many rollups tiers lists with their ids.
const latestRollups = 10

// Honest labels for the two estimated columns, printed with the figures.
const (
	tokensNote = "estimate: characters / 4 of the text an agent reads (title and content, or the summary)"
	bytesNote  = "sum of the stored column bytes of the rows, without page and index overhead"
)

func (a *app) tiersCommand() *cobra.Command {
	var jsonOut bool
	c := &cobra.Command{
		Use:   "tiers",
		Short: "Show the raw and rollup tiers: counts, date ranges, tokens and size",
		Long: `Show what the store holds per tier: raw memories and
observations by status (compacted ones have been rolled up), and rollups by
bucket type (4h, daily, weekly, monthly) and status (superseded ones were
contradicted by a newer rollup). For each: the count, the date range, a
token estimate (characters / 4) and the stored bytes of the rows. Then the
rollups of the newest buckets with their ids, for 'recall get ID'.`,
		Example: `  recall tiers
  recall tiers --json`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if err := a.open(c.Context()); err != nil {
				return err
			}
			stats, err := a.eng.Tiers(c.Context())
			if err != nil {
				return err
			}
			latest, err := a.eng.LatestRollups(c.Context(), latestRollups)
			if err != nil {
				return err
			}
			if jsonOut {
				if stats == nil {
					stats = []recall.TierStat{}
				}
				if latest == nil {
					latest = []*recall.Rollup{}
				}
				return writeJSON(a.stdout, map[string]any{"tiers": stats, "latest_rollups": latest, "tokens": tokensNote, "bytes": bytesNote})
			}
			if len(stats) == 0 {
				fprintf(a.stderr, "The store is empty. Add memories with `recall put`, then `recall rollup`.\n")
				return nil
			}
			w := table(a.stdout)
			fprintf(w, "TIER\tKIND\tSTATUS\tCOUNT\tENTRIES\tFROM\tTO\tTOKENS~\tBYTES\n")
			for _, s := range stats {
				fprintf(w, "%s\t%s\t%s\t%d\t%d\t%s\t%s\t%d\t%d\n", s.Tier, s.Kind, s.Status, s.Count, s.Entries,
					dayOf(s.From), dayOf(s.To), s.Tokens, s.Bytes)
			}
			w.Flush()
			fprintf(a.stdout, "Tokens: %s.\nBytes: %s.\n", tokensNote, bytesNote)
			if len(latest) > 0 {
				fprintf(a.stdout, "\nLatest rollups ('recall get ID' shows one and its sources):\n")
				w = table(a.stdout)
				fprintf(w, "ID\tBUCKET\tSTART\tTYPE\tKEY\tSUMMARY\n")
				for _, r := range latest {
					fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.BucketType, r.BucketStart.UTC().Format("2006-01-02 15:04"), r.MemoryType, dash(r.Key), oneLine(r.Summary, 60))
				}
				w.Flush()
			}
			return nil
		},
	}
	c.Flags().BoolVar(&jsonOut, "json", false, "print JSON")
	return c
}

// dayOf formats a range end to the minute, UTC.
func dayOf(t *time.Time) string {
	if t == nil {
		return "-"
	}
	return t.UTC().Format("2006-01-02 15:04")
}
