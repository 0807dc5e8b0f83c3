package forget

import (
	"strconv"
	"strings"
	"time"

	"github.com/recall-mem/recall"
)

// ParseID reads a purge --id: a memory id ("tr" + 10 hex digits) or an
// observation number.
func ParseID(s string) (obsID int64, memID string, err error) {
	s = strings.TrimSpace(s)
	if recall.IsID(s) {
		return 0, s, nil
	}
	n, perr := strconv.ParseInt(s, 10, 64)
	if perr != nil || n <= 0 {
		return 0, "", recall.Errorf(recall.EINVALID, "Invalid --id %q: give an observation number such as 42 or a memory id such as tr0123456789.", s)
	}
	return n, "", nil
}

// Resolve fills the cutoff of --older-than from now, lets a memory id
// select memories even without --memories, and validates the result.
// Returns EINVALID for criteria that select nothing or mix targets.
func Resolve(c *recall.PurgeCriteria, now time.Time) error {
	if c.OlderThanDays != nil && c.Type != "" && *c.OlderThanDays >= 0 {
		cut := PurgeCutoff(now, *c.OlderThanDays)
		c.Cutoff = &cut
	}
	if c.MemoryID != "" {
		c.Memories = true
	}
	return c.Validate()
}
