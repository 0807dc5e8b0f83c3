//go:build unix

package sqlite

// readerMmapBytes is how much of the database file each reader maps
// (PRAGMA mmap_size) instead of reading it page by page: SQLite clamps it
// to its build's ceiling (just under 2 GiB), and maps no more than the
// file holds. See readerPragmas.
const readerMmapBytes = 2 << 30
