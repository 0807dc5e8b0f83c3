package engine

// The session-start upkeep process (rollups, sweep) that a SessionStart
// hook leaves runs while the agent goes on, and the agent's next hooks
// write to the same store: a hook that met the upkeep inside a
// transaction waited for SQLite's write lock, and SQLite makes a waiting
// writer poll for it (sleeps of 1, 2, 5, 10, 15, 20, 25 ms…), so it
// woke late, often after the upkeep had begun its next transaction; the
// upkeep's pauses between 25 ms slices bounded that, not well: with a
// backlog the SessionStart hook's wall p95 was 48–51 ms against a CPU
// p95 of 15–20 ms.
//
// Two lock files in the store directory let the hooks go first instead:
//
//   - HookGateFile: every hook process holds it shared while it works.
//     The upkeep takes it exclusively before each of its transactions,
//     so it begins none while a hook is at work, and lets go of it as
//     soon as it holds the second file (hooks arriving meanwhile wait
//     for the transaction under way, no longer).
//   - UpkeepWriteFile: the upkeep holds it exclusively for each
//     transaction. A hook takes it shared and lets go at once: it waits
//     for the end of the upkeep's transaction under way, and the kernel
//     wakes it the moment it ends.
//
// Both take the files in that order, so neither waits on the other in a
// cycle. The locks are advisory and only order the two; SQLite's own
// locking keeps the store correct whatever they do (a process that
// cannot open the files goes ungated), and they go with a process that
// dies.
const (
	HookGateFile    = "hooks.lock"
	UpkeepWriteFile = "upkeep.write"
)
