package postgres

// NearestSQL is the vector search's query, for tests of its plan.
var NearestSQL = nearestSQL
