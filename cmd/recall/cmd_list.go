package main

import (
	"strings"

	"github.com/recall-mem/recall"
	"github.com/spf13/cobra"
)

// filterFlags are the memory filters shared by list, search and context.
type filterFlags struct {
	collection, typ, tier, status, project string
	filters                                []string
	pinned                                 bool
}

func (f *filterFlags) register(c *cobra.Command) {
	fl := c.Flags()
	fl.StringVar(&f.collection, "collection", "", "only this collection")
	fl.StringVar(&f.typ, "type", "", "only this type")
	fl.StringVar(&f.tier, "tier", "", "only this tier: working, register or archive")
	fl.StringVar(&f.status, "status", "", "only this status (default active; \"any\" for all)")
	fl.StringVar(&f.project, "project", "", "only this project")
	fl.BoolVar(&f.pinned, "pinned", false, "only pinned memories")
	fl.StringArrayVar(&f.filters, "filter", nil, "`field=v1,v2`: field equals any value (tags, category, priority, created_by, metadata.NAME, …); repeatable")
}

// given is the value of the string flag name when it was given (even
// empty), else nil.
func given(c *cobra.Command, name, v string) *string {
	if c.Flags().Changed(name) {
		return &v
	}
	return nil
}

func (f *filterFlags) build(c *cobra.Command) (recall.MemoryFilter, error) {
	var out recall.MemoryFilter
	out.Collection, out.Type, out.Tier = given(c, "collection", f.collection), given(c, "type", f.typ), given(c, "tier", f.tier)
	out.Status, out.Project = given(c, "status", f.status), given(c, "project", f.project)
	if f.pinned {
		t := true
		out.Pinned = &t
	}
	fields, err := recall.ParseFieldFilters(f.filters)
	if err != nil {
		return out, err
	}
	out.Fields = fields
	return out, nil
}

func (a *app) listCommand() *cobra.Command {
	var ff filterFlags
	var limit, offset int
	var jsonOut bool
	c := &cobra.Command{
		Use:   "list",
		Short: "List memories, most recently changed first",
		Example: `  recall list --collection knowledge
  recall list --filter tags=api,auth --filter priority=high --json`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			f, err := ff.build(c)
			if err != nil {
				return err
			}
			f.Limit, f.Offset = limit, offset
			if err := a.open(c.Context()); err != nil {
				return err
			}
			ms, total, err := a.eng.List(c.Context(), f)
			if err != nil {
				return err
			}
			if jsonOut {
				if ms == nil {
					ms = []*recall.Memory{}
				}
				return writeJSON(a.stdout, ms)
			}
			if len(ms) == 0 {
				fprintf(a.stderr, "No memories match. Add one with: recall put FILE\n")
				return nil
			}
			w := table(a.stdout)
			fprintf(w, "ID\tKEY\tCOLLECTION\tTYPE\tTIER\tUPDATED\tTITLE\n")
			for _, m := range ms {
				title := m.Title
				if title == "" {
					title = m.Content
				}
				pin := ""
				if m.Pinned {
					pin = " (pinned)"
				}
				fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s%s\n", m.ID, dash(m.Key), m.Collection, dash(m.Type), m.Tier,
					m.UpdatedAt.Format("2006-01-02 15:04"), oneLine(title, 60), pin)
			}
			w.Flush()
			if total > len(ms) {
				fprintf(a.stderr, "%d of %d shown; use --limit and --offset for more\n", len(ms), total)
			}
			return nil
		},
	}
	ff.register(c)
	c.Flags().IntVar(&limit, "limit", 50, "show at most `N` (0 for all)")
	c.Flags().IntVar(&offset, "offset", 0, "skip the first `N`")
	c.Flags().BoolVar(&jsonOut, "json", false, "print a JSON array of memories")
	return c
}

func dash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "-"
	}
	return s
}
