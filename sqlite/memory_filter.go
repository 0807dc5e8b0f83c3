package sqlite

import (
	"strings"

	"github.com/recall-mem/recall"
)

// filterColumns maps the names users filter by to stored columns.
var filterColumns = map[string]string{
	"id": "m.id", "key": "m.key", "collection": "m.collection", "type": "m.type",
	"category": "m.category", "priority": "m.priority", "project": "m.project",
	"created_by": "m.created_by", "tier": "m.tier", "status": "m.status",
}

// FilterFields lists the field names a filter accepts, for help and errors.
const FilterFields = "tags, type, category, priority, project, created_by, tier, status, collection, key, or metadata.NAME"

// whereMemories turns a filter into an SQL condition over alias m and its
// arguments. It always returns a valid condition ("1" when empty).
func whereMemories(f recall.MemoryFilter) (string, []any, error) {
	if err := f.Validate(); err != nil {
		return "", nil, err
	}
	var conds []string
	var args []any
	eq := func(col string, v *string) {
		if v != nil {
			conds, args = append(conds, col+" = ?"), append(args, *v)
		}
	}
	eq("m.id", f.ID)
	if f.IDs != nil {
		if len(f.IDs) == 0 {
			conds = append(conds, "0")
		} else {
			conds, args = append(conds, "m.id IN "+inList), append(args, jsonStrings(f.IDs))
		}
	}
	eq("m.collection", f.Collection)
	eq("m.key", f.Key)
	eq("m.type", f.Type)
	eq("m.tier", f.Tier)
	eq("m.project", f.Project)
	switch {
	case f.Status == nil:
		conds = append(conds, "m.status = 'active'")
	case *f.Status != "*" && *f.Status != "any":
		eq("m.status", f.Status)
	}
	if f.Pinned != nil {
		conds, args = append(conds, "m.pinned = ?"), append(args, *f.Pinned)
	}
	if f.Since != nil {
		conds, args = append(conds, "m.occurred_at >= ?"), append(args, ms(*f.Since))
	}
	if f.Until != nil {
		conds, args = append(conds, "m.occurred_at < ?"), append(args, ms(*f.Until))
	}
	for name, values := range f.Fields {
		if len(values) == 0 {
			continue
		}
		ph := strings.TrimSuffix(strings.Repeat("?,", len(values)), ",")
		var cond string
		switch {
		case name == "tags" || name == "tag":
			// memory_tags (migration 0014) mirrors the tags column.
			cond = "m.seq IN (SELECT t.seq FROM memory_tags t WHERE t.tag IN (" + ph + "))"
		case strings.HasPrefix(name, "metadata."):
			path := strings.TrimPrefix(name, "metadata.")
			if path == "" || strings.ContainsAny(path, `"'\$[]`) {
				return "", nil, recall.Errorf(recall.EINVALID, "Invalid filter field %q: name a metadata key like metadata.source.", name)
			}
			cond = `CAST(json_extract(m.metadata, '$."` + path + `"') AS TEXT) IN (` + ph + ")"
		default:
			col, ok := filterColumns[name]
			if !ok {
				return "", nil, recall.Errorf(recall.EINVALID, "Unknown filter field %q: filter by %s.", name, FilterFields)
			}
			cond = col + " IN (" + ph + ")"
		}
		conds = append(conds, cond)
		for _, v := range values {
			args = append(args, v)
		}
	}
	if len(conds) == 0 {
		return "1", nil, nil
	}
	return strings.Join(conds, " AND "), args, nil
}
