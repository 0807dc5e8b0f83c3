package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"reflect"

	"modernc.org/libc"
	lib "modernc.org/sqlite/lib"
)

// SQLite's last connection to a database checkpoints the WAL into it as it
// closes, syncs both files and deletes the WAL; the next process creates
// the WAL again and syncs its header and the directory at its first
// commit. A hook process paid that after its reply (two or three fsyncs
// and an unlink, a few ms of wall time on this disk) for every few pages
// it wrote. A process that sets DB.LeaveCheckpoint closes without it
// (SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE): the WAL and its index stay, as after
// a process killed at that point, and the pages move into the database
// at the next checkpoint: the close of such a process that finds the WAL
// past leftWALBytes (this bounds it), the automatic one of the commit
// that takes it past wal_autocheckpoint pages, the session upkeep's (see
// write_gate.go), or the close of a process that does not set it (any
// other command, a server, the hook's upkeep process).
//
// What this gives up is durability against power loss, never
// consistency: with synchronous=NORMAL a commit is not synced until a
// checkpoint, so the commits since the last one may be lost if the
// machine (not the process) goes down before the kernel writes them;
// the WAL then still holds whole transactions only.

// leftWALBytes bounds the WAL a process leaves. The WAL left behind is
// not free: its index (-shm) does not outlive the last connection, so
// the next process to open the store rebuilds it, reading and
// checksumming every frame since the WAL last restarted (~17 µs a 16 KiB
// frame here). Left to SQLite's 1,000-page automatic checkpoint, that
// cost a hook 1.7 ms of CPU at ~400 frames, and at 256 pages a
// PostToolUse still paid ~2 ms more than with the close checkpoint.
// A hook's own automatic checkpoint at a small bound was worse: beside a
// running session upkeep the WAL is always past it, and every hook's
// commit copied the upkeep's pages. So the bound is applied at close:
// past it the process closes as before, checkpointing if it is the last
// connection (not while the upkeep holds the store open) and deleting
// the WAL; under it (a hook adds 11–14 pages) it leaves the WAL. The
// file's size stands for the frames in it: after a checkpoint restarts
// the WAL it overstates them, which only means a checkpoint more.
const leftWALBytes = 1 << 20

// errNoHandle: the driver's connection does not look as expected.
var errNoHandle = errors.New("sqlite: the driver's connection has no db and tls fields")

// leaveCheckpoint sets SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE on every
// connection the pools hold open. Only the last connection to close
// checkpoints, whichever it is, so all of them get it. A connection
// that cannot be set (a driver laid out otherwise) checkpoints as before.
func (db *DB) leaveCheckpoint() {
	if fi, err := os.Stat(db.Path + "-wal"); err != nil || fi.Size() > leftWALBytes {
		return
	}
	for _, pool := range []*sql.DB{db.read, db.write} {
		if pool != nil {
			leavePoolCheckpoint(pool)
		}
	}
}

func leavePoolCheckpoint(pool *sql.DB) {
	// Conn hands out idle connections before it opens a new one: taking
	// as many as are idle, each held while the next is taken, reaches
	// every one of them and opens none.
	n := pool.Stats().Idle
	conns := make([]*sql.Conn, 0, n)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range n {
		c, err := pool.Conn(context.Background())
		if err != nil {
			return
		}
		conns = append(conns, c)
		_ = c.Raw(noCheckpointOnClose)
	}
}

// noCheckpointOnClose sets SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE on one of the
// driver's connections. modernc.org/sqlite keeps sqlite3_db_config to
// itself; its connection holds the database handle and the thread state
// in the fields db and tls, which this reads.
func noCheckpointOnClose(dc any) error {
	v := reflect.ValueOf(dc)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return errNoHandle
	}
	h, state := v.Elem().FieldByName("db"), v.Elem().FieldByName("tls")
	if !h.IsValid() || h.Kind() != reflect.Uintptr || !state.IsValid() || state.Type() != reflect.TypeFor[*libc.TLS]() || state.IsNil() {
		return errNoHandle
	}
	tls := (*libc.TLS)(state.UnsafePointer())
	// The arguments are (int onoff, int *pRes), pRes NULL; libc.VaList
	// gives each an 8-byte slot.
	args := libc.Xmalloc(tls, 2*8)
	if args == 0 {
		return errors.New("sqlite: out of memory")
	}
	defer libc.Xfree(tls, args)
	if rc := lib.Xsqlite3_db_config(tls, uintptr(h.Uint()), lib.SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, libc.VaList(args, int32(1), uintptr(0))); rc != lib.SQLITE_OK {
		return errors.New("sqlite: sqlite3_db_config(SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE) failed")
	}
	return nil
}
