package engine

import (
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/rank"
	"github.com/recall-mem/recall/timeq"
)

// SearcherFor builds the searcher 'recall search', 'recall context' and
// 'recall bench locomo' use over a store, and describes its configuration
// for benchmark reports.
//
// hist, when set, lets the searcher answer --as-of queries.
func (e *Engine) SearcherFor(mem recall.MemoryStore, vec recall.VectorSearcher, hist recall.HistoryReader, cfg *Config) (recall.Searcher, map[string]any) {
	s := &rank.Searcher{Text: mem, Memories: mem, Neighbors: mem, Time: timeq.Parser{}, Now: func() time.Time { return time.Now().UTC() }, Options: rank.DefaultOptions()}
	if vec != nil {
		s.Vectors = vec
	}
	if hist != nil {
		s.AsOf = e.asOfSearcher(hist, cfg)
	}
	if vs, ok := vec.(interface{ EmbedderModel() string }); ok && vs.EmbedderModel() != "" {
		s.Options.VectorFloor = rank.VectorFloor(vs.EmbedderModel())
	}
	cfg.Ranking.Apply(&s.Options)
	o := s.Options
	return s, map[string]any{
		"embedder": EmbedderName(cfg), "fusion": o.Fusion, "rrf_k": o.RRFK, "candidates": o.Candidates,
		"text_weight": o.TextWeight, "vector_weight": o.VectorWeight, "mmr_lambda": o.MMRLambda,
		"episode": o.Episode, "neighbor": o.Neighbor, "neighbor_before": o.NeighborBefore,
		"time_boost": o.TimeBoost, "feedback": o.Feedback, "recency": o.Weights.Recency,
		"half_life_days": o.Weights.HalfLife.Hours() / 24, "vector_floor": o.VectorFloor, "min_share": o.MinShare, "entity": o.Entity, "time_strict": o.TimeStrict,
		"context_share": o.ContextShare,
	}
}

// RankingConfig is [ranking] in config.toml: every field is optional and
// overrides one default of rank.DefaultOptions (docs/retrieval.md says
// what each did on LoCoMo).
type RankingConfig struct {
	Fusion         *string  `toml:"fusion"` // score or rrf
	VectorWeight   *float64 `toml:"vector_weight"`
	Episode        *float64 `toml:"episode"`
	Neighbor       *float64 `toml:"neighbor"`
	NeighborBefore *float64 `toml:"neighbor_before"`
	TimeBoost      *float64 `toml:"time_boost"`
	Feedback       *float64 `toml:"feedback"`
	Recency        *float64 `toml:"recency"`
	HalfLifeDays   *float64 `toml:"half_life_days"`
	MMRLambda      *float64 `toml:"mmr_lambda"`
	VectorFloor    *float64 `toml:"vector_floor"` // default: calibrated per embedder (rank.VectorFloor)
	MinShare       *float64 `toml:"min_share"`
	Entity         *float64 `toml:"entity"`
	TimeStrict     *bool    `toml:"time_strict"`
	ContextShare   *float64 `toml:"context_share"`
}

// Apply sets the options rc names over o.
func (rc RankingConfig) Apply(o *rank.Options) {
	set := func(dst *float64, v *float64) {
		if v != nil {
			*dst = *v
		}
	}
	if rc.Fusion != nil {
		o.Fusion = *rc.Fusion
	}
	set(&o.VectorWeight, rc.VectorWeight)
	set(&o.Episode, rc.Episode)
	set(&o.Neighbor, rc.Neighbor)
	set(&o.NeighborBefore, rc.NeighborBefore)
	set(&o.TimeBoost, rc.TimeBoost)
	set(&o.Feedback, rc.Feedback)
	set(&o.Weights.Recency, rc.Recency)
	set(&o.MMRLambda, rc.MMRLambda)
	set(&o.VectorFloor, rc.VectorFloor)
	set(&o.MinShare, rc.MinShare)
	set(&o.Entity, rc.Entity)
	set(&o.ContextShare, rc.ContextShare)
	if rc.TimeStrict != nil {
		o.TimeStrict = *rc.TimeStrict
	}
	if rc.HalfLifeDays != nil && *rc.HalfLifeDays > 0 {
		o.Weights.HalfLife = time.Duration(*rc.HalfLifeDays * 24 * float64(time.Hour))
	}
}

// EmbedderName names the configured embedder, "builtin" by default.
func EmbedderName(cfg *Config) string {
	if cfg.Retrieval.Embedder == "" {
		return "builtin"
	}
	return cfg.Retrieval.Embedder
}
