//go:build unix

package engine

// UpkeepWriteGateFor exposes upkeepWriteGate to the tests.
var UpkeepWriteGateFor = upkeepWriteGate
