package postgres

import (
	"fmt"
	"strings"
	"time"

	"github.com/recall-mem/recall"
)

// where builds an SQL condition and its numbered arguments. The first
// argument is always the namespace, and the condition always starts with
// it: no query of the store can leave its namespace.
type where struct {
	alias string // of the table filtered
	conds []string
	args  []any
}

// newWhere starts a condition over the table aliased alias, in namespace
// ns ($1).
func newWhere(alias, ns string) *where { return &where{alias: alias, args: []any{ns}} }

// arg adds an argument and returns its placeholder.
func (w *where) arg(v any) string {
	w.args = append(w.args, v)
	return fmt.Sprintf("$%d", len(w.args))
}

func (w *where) add(cond string) { w.conds = append(w.conds, cond) }

// sql is the condition over the alias the filter was built for.
func (w *where) sql() string {
	return strings.Join(append([]string{w.alias + ".namespace = $1"}, w.conds...), " AND ")
}

// filterColumns maps the names users filter by to stored columns.
var filterColumns = map[string]string{
	"id": "m.id", "key": "m.key", "collection": "m.collection", "type": "m.type",
	"category": "m.category", "priority": "m.priority", "project": "m.project",
	"created_by": "m.created_by", "tier": "m.tier", "status": "m.status",
}

// filterFields lists the field names a filter accepts, for errors.
const filterFields = "tags, type, category, priority, project, created_by, tier, status, collection, key, or metadata.NAME"

// memories adds the conditions of a memory filter over alias m, with the
// meaning the SQLite store gives them.
func (w *where) memories(f recall.MemoryFilter) error {
	eq := func(col string, v *string) {
		if v != nil {
			w.add(col + " = " + w.arg(*v))
		}
	}
	eq("m.id", f.ID)
	if f.IDs != nil {
		w.add("m.id = ANY(" + w.arg(f.IDs) + "::text[])")
	}
	eq("m.collection", f.Collection)
	eq("m.key", f.Key)
	eq("m.type", f.Type)
	eq("m.tier", f.Tier)
	eq("m.project", f.Project)
	switch {
	case f.Status == nil:
		w.add("m.status = 'active'")
	case *f.Status != "*" && *f.Status != "any":
		eq("m.status", f.Status)
	}
	if f.Pinned != nil {
		w.add("m.pinned = " + w.arg(*f.Pinned))
	}
	if f.Since != nil {
		w.add("m.occurred_at >= " + w.arg(f.Since.UTC()))
	}
	if f.Until != nil {
		w.add("m.occurred_at < " + w.arg(f.Until.UTC()))
	}
	for name, values := range f.Fields {
		if len(values) == 0 {
			continue
		}
		switch {
		case name == "tags" || name == "tag":
			w.add("m.tags ?| " + w.arg(values) + "::text[]")
		case strings.HasPrefix(name, "metadata."):
			path := strings.TrimPrefix(name, "metadata.")
			if path == "" || strings.ContainsAny(path, `"'\$[]`) {
				return recall.Errorf(recall.EINVALID, "Invalid filter field %q: name a metadata key like metadata.source.", name)
			}
			w.add("(m.metadata -> " + w.arg(path) + ") #>> '{}' = ANY(" + w.arg(values) + "::text[])")
		default:
			col, ok := filterColumns[name]
			if !ok {
				return recall.Errorf(recall.EINVALID, "Unknown filter field %q: filter by %s.", name, filterFields)
			}
			w.add(col + " = ANY(" + w.arg(values) + "::text[])")
		}
	}
	return nil
}

// observations adds the conditions of an observation filter over alias o.
func (w *where) observations(f recall.ObservationFilter) {
	if f.ID != nil {
		w.add("o.id = " + w.arg(*f.ID))
	}
	for _, c := range []struct {
		col string
		v   *string
	}{{"o.type", f.Type}, {"o.key", f.Key}, {"o.session", f.Session}, {"o.project", f.Project}, {"o.status", f.Status}} {
		if c.v != nil {
			w.add(c.col + " = " + w.arg(*c.v))
		}
	}
	for _, c := range []struct {
		op string
		t  *time.Time
	}{{">=", f.Since}, {"<", f.Until}} {
		if c.t != nil {
			w.add("o.at " + c.op + " " + w.arg(c.t.UTC()))
		}
	}
	if f.Search != "" {
		w.add(matchCond("o.fts", w, f.Search))
	}
}
