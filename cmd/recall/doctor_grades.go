package main

// Doctor grades, from harmless to serious. Each check says which it is, and
// the report prints this scheme beside the checks (and in --json), so that
// a reader knows what to act on. Only fail makes doctor exit non-zero.
const (
	checkOK   = "ok"
	checkInfo = "info"
	checkWarn = "warn"
	checkFail = "fail"
)

// grades says what each grade means, in order.
var grades = []struct {
	Status  string `json:"status"`
	Meaning string `json:"meaning"`
}{
	{checkOK, "healthy"},
	{checkInfo, "worth knowing, nothing to do"},
	{checkWarn, "recall works, but this should be fixed"},
	{checkFail, "data is at risk or cannot be read, doctor exits 1"},
}

// gradeRank orders grades for worst.
func gradeRank(status string) int {
	for i, g := range grades {
		if g.Status == status {
			return i
		}
	}
	return len(grades) // unknown: treated as worst
}

// worst returns the more serious of two grades.
func worst(a, b string) string {
	if gradeRank(b) > gradeRank(a) {
		return b
	}
	return a
}
