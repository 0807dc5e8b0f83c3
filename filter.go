package recall

import "strings"

// ParseFieldFilters reads field filters written "field=v1,v2" (the CLI's
// --filter and the MCP tools' filter argument) into MemoryFilter.Fields.
// Values are split on commas; repeated fields add values. Returns EINVALID
// for an item without a field name or "=".
func ParseFieldFilters(items []string) (map[string][]string, error) {
	out := map[string][]string{}
	for _, item := range items {
		name, vals, ok := strings.Cut(item, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, Errorf(EINVALID, "Invalid filter %q: use field=value or field=v1,v2 (e.g. tags=api,auth).", item)
		}
		for _, v := range strings.Split(vals, ",") {
			if v = strings.TrimSpace(v); v != "" {
				out[name] = append(out[name], v)
			}
		}
	}
	return out, nil
}

// NormalizeTags lower-cases and trims tags, dropping empty ones and
// duplicates while keeping the first-seen order.
func NormalizeTags(tags []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range tags {
		t = strings.ToLower(strings.TrimSpace(t))
		if t != "" && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}
