//go:build race

package sqlite_test

// raceEnabled is true when the tests run under the race detector, which
// makes SQLite's pure-Go code 10–30 times slower: volume tests then skip,
// since the plain `go test ./...` run covers them.
const raceEnabled = true
