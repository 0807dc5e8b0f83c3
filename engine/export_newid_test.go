package engine

// SetNewID makes the ids drawn for untagged entries come from f until the
// test ends.
func SetNewID(t interface{ Cleanup(func()) }, f func() string) {
	old := newID
	newID = f
	t.Cleanup(func() { newID = old })
}
