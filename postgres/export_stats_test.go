package postgres

// StatsQueries are StoreStats' counting queries by the index each reads;
// each takes the namespace and, if it counts a time range, its ends.
var StatsQueries = map[string]string{
	"observations_type":     observationsByType,
	"memories_tier":         memoriesByTier,
	"memory_rollups_bucket": rollupsByType,
	"memories_created":      memoriesCreated,
}
