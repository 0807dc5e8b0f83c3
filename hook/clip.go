package hook

import "github.com/recall-mem/recall"

// clipper redacts a text whole and then trims it, counting what it
// removed. The order matters: trimmed first, a secret can lose the part
// its detector needs (a key's BEGIN line, a token's last characters) and
// then pass the store's redactor with the rest of it intact.
type clipper struct {
	redactor recall.Redactor
	counts   map[string]int
}

func (c *clipper) clip(s string, limit int) string {
	if c.redactor != nil && s != "" {
		var n map[string]int
		s, n = c.redactor.Redact(s)
		for kind, k := range n {
			if c.counts == nil {
				c.counts = map[string]int{}
			}
			c.counts[kind] += k
		}
	}
	return Trim(s, limit)
}

// record adds the counts to meta under "redacted", as the store does, so
// that a reader knows text is missing.
func (c *clipper) record(meta map[string]any) {
	if len(c.counts) > 0 {
		meta["redacted"] = c.counts
	}
}
