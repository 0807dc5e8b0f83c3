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

// Resolve checks purge criteria and fills the cutoff of --older-than from
// now. A memory id selects memories even without --memories. Returns
// EINVALID for criteria that select nothing or mix targets.
func Resolve(c *recall.PurgeCriteria, now time.Time) error {
	if c.IsEmpty() {
		return recall.Errorf(recall.EINVALID, "Purge needs at least one filter: --before, --project, --session, --id, --type (with --older-than) or --search. To see what matches, run it without --confirm.")
	}
	if c.OlderThanDays != nil {
		if c.Type == "" {
			return recall.Errorf(recall.EINVALID, "--older-than needs --type: for example --type file_read --older-than 90; use --before DATE to cut every type at a date.")
		}
		if *c.OlderThanDays < 0 {
			return recall.Errorf(recall.EINVALID, "--older-than must be 0 or more days (0 matches every age).")
		}
		cut := PurgeCutoff(now, *c.OlderThanDays)
		c.Cutoff = &cut
	}
	if c.MemoryID != "" {
		c.Memories = true
	}
	if c.Memories {
		if c.ObservationID != 0 {
			return recall.Errorf(recall.EINVALID, "--id %d is an observation number but --memories purges memories: drop --memories, or give a memory id (tr…).", c.ObservationID)
		}
		if c.Session != "" {
			return recall.Errorf(recall.EINVALID, "--session applies to observations; memories have no session. Drop --memories or --session.")
		}
	}
	if c.Search != "" && strings.TrimSpace(c.Search) == "" {
		return recall.Errorf(recall.EINVALID, "--search needs some words to match.")
	}
	return nil
}
