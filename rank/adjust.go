package rank

import (
	"math"
	"time"

	"github.com/recall-mem/recall"
)

// Weights say how much each adjustment moves a fused score. Every
// adjustment multiplies the score, so a zero-score item stays at zero and
// an adjustment never lifts an irrelevant memory above a relevant one by
// itself.
type Weights struct {
	// Recency is the largest boost for a memory that occurred just now:
	// score × (1 + Recency × 2^(-age/HalfLife)).
	Recency  float64
	HalfLife time.Duration
	Working  float64 // boost for the working tier
	Archive  float64 // penalty (0..1) for the archive tier
	Pinned   float64 // boost for pinned memories
	// Confidence blends in a memory's confidence: score × (1 - C + C×conf).
	Confidence float64
	// Inactive is the factor for superseded or archived memories when they
	// are searched at all. Compacted memories are not inactive: a rollup
	// summarises them, but what they say still holds and is the evidence.
	Inactive float64
}

// DefaultWeights are mild: relevance decides, the adjustments break near
// ties.
func DefaultWeights() Weights {
	return Weights{Recency: 0.05, HalfLife: 30 * 24 * time.Hour, Working: 0.1, Archive: 0.1, Pinned: 0.1, Confidence: 0.3, Inactive: 0.5}
}

// Adjust returns score adjusted for m at time now, and the factor each
// adjustment applied (only those that changed something).
func Adjust(score float64, m *recall.Memory, now time.Time, w Weights) (float64, map[string]float64) {
	f := map[string]float64{}
	return adjust(score, m, now, w, f), f
}

// adjust is Adjust writing the factors into f, or nowhere when f is nil:
// a search without --explain never reads them, and a map for each of its
// ~200 candidates was a twentieth of what a hybrid search allocated.
func adjust(score float64, m *recall.Memory, now time.Time, w Weights, f map[string]float64) float64 {
	mul := func(name string, v float64) {
		if v != 1 {
			if f != nil {
				f[name] = v
			}
			score *= v
		}
	}
	if w.Recency > 0 && w.HalfLife > 0 && !now.IsZero() {
		mul("recency", 1+w.Recency*Decay(now.Sub(m.OccurredAt), w.HalfLife))
	}
	switch m.Tier {
	case recall.TierWorking:
		mul("tier", 1+w.Working)
	case recall.TierArchive:
		mul("tier", 1-w.Archive)
	}
	if m.Pinned {
		mul("pinned", 1+w.Pinned)
	}
	if w.Confidence > 0 {
		c := math.Min(math.Max(m.Confidence, 0), 1)
		mul("confidence", 1-w.Confidence+w.Confidence*c)
	}
	if m.Status != "" && m.Status != recall.StatusActive && m.Status != recall.StatusCompacted && w.Inactive > 0 {
		mul("status", w.Inactive)
	}
	return score
}

// Decay is 2^(-age/halfLife): 1 now, 0.5 one half-life ago. A memory dated
// in the future counts as now.
func Decay(age, halfLife time.Duration) float64 {
	if age < 0 {
		age = 0
	}
	return math.Exp2(-float64(age) / float64(halfLife))
}
