//go:build !unix

package sqlite

// readerMmapBytes is 0 where there is no unix: Windows does not let a
// file that another process maps be truncated, and a purge truncates the
// file (VACUUM, then the checkpoint) while a server's readers would hold
// it mapped. The readers read page by page there.
const readerMmapBytes = 0
