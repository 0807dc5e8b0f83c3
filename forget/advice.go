package forget

import (
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/recall-mem/recall"
)

// ReconsiderBytes is seed 003's size at which to reconsider never
// forgetting: 100 MB, roughly five years of heavy use at its estimates.
const ReconsiderBytes = 100 << 20

// dominantShare and dominantRows flag a type that carries most of the volume
// without a retention period: seed 003's "new observation type with high
// volume and low retention value".
const (
	dominantShare = 0.5
	dominantRows  = 1000
)

// Assess fills the growth estimate, the projection a year ahead and the
// advice of s from its raw counts and sizes. The bytes of the last 30 days
// are estimated from the average size of a row, since SQLite cannot say
// which pages a row occupies.
func Assess(s *recall.StoreStats, p recall.RetentionPolicy) {
	used := max(s.DBBytes-s.FreeBytes, 0)
	rows := s.Observations + s.Memories + s.Versions
	if rows > 0 {
		s.GrowthBytes = int64(math.Round(float64(used) / float64(rows) * float64(s.GrowthRows)))
	}
	s.ProjectedBytes = used + s.WALBytes + s.GrowthBytes*365/30
	s.Advice = advice(s, p)
}

func advice(s *recall.StoreStats, p recall.RetentionPolicy) string {
	if p.Enabled {
		short := ""
		if t, d := shortest(p.Days); t != "" {
			short = fmt.Sprintf(", the shortest %s at %d days", t, d)
		}
		return fmt.Sprintf("Retention is on: %d observation types expire%s; pinned observations and rollup sources are kept.", len(p.Days), short)
	}
	size := s.StoreBytes()
	switch {
	case size > ReconsiderBytes:
		return fmt.Sprintf("Retention is worth enabling: the store is %s, past the %s at which never forgetting should be reconsidered. Set enabled = true under [retention] in config.toml and check it with 'recall sweep --dry-run'.", Bytes(size), Bytes(ReconsiderBytes))
	case s.ProjectedBytes > ReconsiderBytes:
		return fmt.Sprintf("Retention will be worth enabling within a year: at the last 30 days' rate the store reaches %s. Until then keeping everything costs little.", Bytes(s.ProjectedBytes))
	}
	if t, n := dominant(s.ObservationsByType); n >= dominantRows && float64(n) >= dominantShare*float64(s.Observations) && p.Days[t] == 0 {
		return fmt.Sprintf("Retention not needed for size yet (%s), but %s makes up %d%% of observations and has no retention period: give it one under [retention.days] if it is noise.", Bytes(size), t, n*100/s.Observations)
	}
	return fmt.Sprintf("Retention not needed yet: the store is %s and would be %s in a year at this rate, under %s. Keeping everything costs little; forgetting too much cannot be undone.", Bytes(size), Bytes(s.ProjectedBytes), Bytes(ReconsiderBytes))
}

func shortest(days map[string]int) (string, int) {
	best, bestDays := "", 0
	for _, t := range slices.Sorted(maps.Keys(days)) {
		if best == "" || days[t] < bestDays {
			best, bestDays = t, days[t]
		}
	}
	return best, bestDays
}

func dominant(byType map[string]int) (string, int) {
	best, n := "", 0
	for _, t := range slices.Sorted(maps.Keys(byType)) {
		if byType[t] > n {
			best, n = t, byType[t]
		}
	}
	return best, n
}

// Bytes formats a size for people in binary units.
func Bytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	v, i := float64(n), -1
	for v >= unit && i < 3 {
		v /= unit
		i++
	}
	return fmt.Sprintf("%.1f %ciB", v, "KMGT"[i])
}
