//go:build unix

package engine

import "time"

// UpkeepWriteGateFor exposes upkeepWriteGate to the tests.
var UpkeepWriteGateFor = upkeepWriteGate

// SetUpkeepQuiet sets upkeepQuiet until the test ends.
func SetUpkeepQuiet(t interface{ Cleanup(func()) }, d time.Duration) {
	old := upkeepQuiet
	upkeepQuiet = d
	t.Cleanup(func() { upkeepQuiet = old })
}
