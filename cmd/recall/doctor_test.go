package main

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/sqlite"
	"github.com/recall-mem/recall/sqlite/sqlitetest"
)

// damagedStore returns a store directory whose recall.db (and its
// write-ahead log, with the last writes in it) were copied from a store
// that was still open, the way a crash leaves them.
func damagedStore(t *testing.T) string {
	t.Helper()
	db := sqlitetest.MustOpenDB(t)
	mem := sqlite.NewMemoryService(db)
	for _, title := range []string{"Deploy rule", "Indent style", "Test command"} {
		if _, err := mem.PutMemory(context.Background(), &recall.Memory{Title: title, Content: strings.Repeat(title+" matters. ", 30)}); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(t.TempDir(), "store")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	sqlitetest.CopyWithWAL(t, db, dir)
	return dir
}

// doctor runs `recall --store dir doctor` and returns its exit code and
// output.
func doctor(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := newApp(strings.NewReader(""), &out, &errOut).execute(context.Background(), append([]string{"--store", dir, "doctor"}, args...))
	return code, out.String(), errOut.String()
}

// wantAdvice checks that the report says how to restore and salvage.
func wantAdvice(t *testing.T, out string) {
	t.Helper()
	for _, want := range []string{"cp -a ", "recall backup", ".recover", "doctor"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report does not say %q:\n%s", want, out)
		}
	}
}

// TestDoctor_NotADatabase: a recall.db overwritten from its first byte
// makes every command fail with "file is not a database"; doctor still
// reports, says what to do, exits 1 and leaves the files as they were.
func TestDoctor_NotADatabase(t *testing.T) {
	dir := damagedStore(t)
	path := filepath.Join(dir, dbFile)
	if err := os.Remove(path + "-wal"); err != nil { // page 1 would come from the log
		t.Fatal(err)
	}
	sqlitetest.Overwrite(t, path, 0, []byte("this file is not a database any more"))
	before, _ := os.ReadFile(path)
	code, out, errOut := doctor(t, dir)
	if code != exitData || !strings.Contains(out, "fail  store files") || !strings.Contains(out, "does not start with SQLite's header") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	wantAdvice(t, out)
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Fatal("doctor changed the damaged file")
	}
}

// TestDoctor_DamagedSchema: the header is intact but the schema on page 1
// is not, so SQLite refuses to open the store; doctor reports it.
func TestDoctor_DamagedSchema(t *testing.T) {
	dir := damagedStore(t)
	path := filepath.Join(dir, dbFile)
	if err := os.Remove(path + "-wal"); err != nil {
		t.Fatal(err)
	}
	sqlitetest.Overwrite(t, path, 100, bytes.Repeat([]byte{0xff}, 4000))
	code, out, errOut := doctor(t, dir)
	if code != exitData || !strings.Contains(out, "fail  store opens") || !strings.Contains(out, "cannot be opened") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	wantAdvice(t, out)
}

// TestDoctor_GarbageLog: a write-ahead log overwritten with garbage would
// be silently dropped, with the writes in it, by the next open. Doctor
// says so, does not open the store, and the log is still there after.
func TestDoctor_GarbageLog(t *testing.T) {
	dir := damagedStore(t)
	wal := filepath.Join(dir, dbFile+"-wal")
	sqlitetest.Overwrite(t, wal, 0, bytes.Repeat([]byte("garbage "), 512))
	before, _ := os.ReadFile(wal)
	code, out, errOut := doctor(t, dir, "--json")
	if code != exitData || !strings.Contains(out, `"ok": false`) || !strings.Contains(out, "writes since the last checkpoint are lost") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	wantAdvice(t, out)
	if after, err := os.ReadFile(wal); err != nil || !bytes.Equal(before, after) {
		t.Fatalf("doctor discarded or changed the damaged log: %v", err)
	}
}

// TestDoctor_TruncatedLog: a log cut in its last frame is an interrupted
// write, which SQLite drops: a warning, and the other checks run.
func TestDoctor_TruncatedLog(t *testing.T) {
	dir := damagedStore(t)
	wal := filepath.Join(dir, dbFile+"-wal")
	fi, err := os.Stat(wal)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(wal, fi.Size()-100); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := doctor(t, dir)
	if code != exitOK || !strings.Contains(out, "warn  store files") || !strings.Contains(out, "incomplete frame") || !strings.Contains(out, "ok    integrity") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
}

// TestDoctor_IntegrityFails: an index page overwritten in a store that
// still opens: integrity_check fails, and doctor says what to do.
func TestDoctor_IntegrityFails(t *testing.T) {
	dir := damagedStore(t)
	path := filepath.Join(dir, dbFile)
	// Checkpoint the copy so the pages are in the file, and find a page
	// of an index on the memories.
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	var root, pageSize int
	if _, err := db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(`SELECT rootpage FROM sqlite_master WHERE type = 'index' AND tbl_name = 'memories' AND rootpage > 1 ORDER BY name LIMIT 1`).Scan(&root); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(`PRAGMA page_size`).Scan(&pageSize); err != nil {
		t.Fatal(err)
	}
	db.Close()
	os.Remove(path + "-wal")
	os.Remove(path + "-shm")
	sqlitetest.Overwrite(t, path, int64(root-1)*int64(pageSize)+8, bytes.Repeat([]byte{0x7f}, 64))
	code, out, errOut := doctor(t, dir)
	if code != exitData || !strings.Contains(out, "fail  integrity") || !strings.Contains(out, "SQLite found damage in the store") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	wantAdvice(t, out)
}
