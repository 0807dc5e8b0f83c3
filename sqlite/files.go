package sqlite

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/recall-mem/recall"
	sqlite3 "modernc.org/sqlite"
	sqlite3lib "modernc.org/sqlite/lib"
)

// The store's files are checked byte by byte before SQLite opens them: an
// open replays the write-ahead log and the last close deletes it, so a
// damaged log would be discarded, with the writes it held, before any
// query could say so. The formats are SQLite's, as documented in its file
// format page (https://www.sqlite.org/fileformat2.html).

// FileProblem is damage found in a store file without opening it.
type FileProblem = recall.FileProblem

// IsCorrupt reports whether err is SQLite saying the database file is
// damaged or is not a database at all.
func IsCorrupt(err error) bool {
	var se *sqlite3.Error
	if errors.As(err, &se) {
		code := se.Code() & 0xff
		return code == sqlite3lib.SQLITE_CORRUPT || code == sqlite3lib.SQLITE_NOTADB
	}
	return false
}

// dbMagic starts every SQLite database file.
var dbMagic = []byte("SQLite format 3\x00")

// CheckFiles inspects the database file at path and its write-ahead log
// (path + "-wal") without opening them with SQLite. A missing or empty
// file is no problem here. A log being written by a running process can
// look incomplete for a moment; callers say so.
func CheckFiles(path string) []FileProblem {
	var out []FileProblem
	if p := checkDBHeader(path); p != "" {
		out = append(out, FileProblem{File: path, Problem: p, Lost: true})
	}
	if p := checkWAL(path + "-wal"); p != nil {
		out = append(out, *p)
	}
	return out
}

// checkDBHeader says what is wrong with the first page's header, or "".
func checkDBHeader(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return "" // missing: opening reports it
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.Size() == 0 {
		return ""
	}
	head := make([]byte, 100)
	n, _ := io.ReadFull(f, head)
	if n < len(dbMagic) || !bytes.Equal(head[:len(dbMagic)], dbMagic) {
		return "it does not start with SQLite's header: the file was overwritten or is not a database"
	}
	if n < 100 {
		return fmt.Sprintf("it is %d bytes long, shorter than SQLite's header: the file was cut short", fi.Size())
	}
	ps := pageSizeOf(binary.BigEndian.Uint16(head[16:18]))
	if ps == 0 {
		return "its header names an invalid page size: the header is damaged"
	}
	if fi.Size()%int64(ps) != 0 {
		return fmt.Sprintf("it is %d bytes long, not a whole number of %d-byte pages: the file was cut short or extended", fi.Size(), ps)
	}
	return ""
}

// pageSizeOf decodes a header's page size field: a power of two from 512
// to 32768, or 1 for 65536; 0 when invalid.
func pageSizeOf(v uint16) int {
	if v == 1 {
		return 65536
	}
	if v < 512 || v&(v-1) != 0 {
		return 0
	}
	return int(v)
}

// WAL format constants.
const (
	walHeaderSize = 32
	walFrameHead  = 24
	walMagicLE    = 0x377f0682 // checksums over little-endian words
	walMagicBE    = 0x377f0683 // checksums over big-endian words
	walVersion    = 3007000
)

// checkWAL validates the log's header and the checksum chain of its
// frames, and reports nil when SQLite would replay every complete
// transaction in it.
func checkWAL(path string) *FileProblem {
	buf, err := os.ReadFile(path)
	if err != nil || len(buf) == 0 {
		return nil
	}
	lost := func(format string, args ...any) *FileProblem {
		return &FileProblem{File: path, Problem: fmt.Sprintf(format, args...), Lost: true}
	}
	if len(buf) < walHeaderSize {
		return lost("it is %d bytes long, shorter than a write-ahead log header: SQLite will ignore it, and the writes since the last checkpoint are lost", len(buf))
	}
	magic := binary.BigEndian.Uint32(buf[0:4])
	if magic != walMagicLE && magic != walMagicBE {
		return lost("it does not start with a write-ahead log header: SQLite will ignore it, and the writes since the last checkpoint are lost")
	}
	order := binary.ByteOrder(binary.LittleEndian)
	if magic == walMagicBE {
		order = binary.BigEndian
	}
	s0, s1 := walChecksum(order, buf[:24], 0, 0)
	if binary.BigEndian.Uint32(buf[4:8]) != walVersion || s0 != binary.BigEndian.Uint32(buf[24:28]) || s1 != binary.BigEndian.Uint32(buf[28:32]) {
		return lost("its header is damaged (checksum or version): SQLite will ignore it, and the writes since the last checkpoint are lost")
	}
	ps := int(binary.BigEndian.Uint32(buf[8:12]))
	if ps < 512 || ps > 65536 || ps&(ps-1) != 0 {
		return lost("its header names an invalid page size: SQLite will ignore it, and the writes since the last checkpoint are lost")
	}
	salt := buf[16:24]
	frame := walFrameHead + ps
	n := (len(buf) - walHeaderSize) / frame
	bad := -1 // first frame of this log whose checksum fails
	for i := 0; i < n; i++ {
		f := buf[walHeaderSize+i*frame : walHeaderSize+(i+1)*frame]
		if !bytes.Equal(f[8:16], salt) {
			n = i // a frame left from before the log was last reset: the end
			break
		}
		s0, s1 = walChecksum(order, f[:8], s0, s1)
		s0, s1 = walChecksum(order, f[walFrameHead:], s0, s1)
		if s0 != binary.BigEndian.Uint32(f[16:20]) || s1 != binary.BigEndian.Uint32(f[20:24]) {
			bad = i
			break
		}
	}
	if bad >= 0 {
		// A commit frame of this log after the damaged one is a
		// transaction SQLite will never replay.
		for i := bad + 1; i < n; i++ {
			f := buf[walHeaderSize+i*frame : walHeaderSize+(i+1)*frame]
			if !bytes.Equal(f[8:16], salt) {
				break
			}
			if binary.BigEndian.Uint32(f[4:8]) != 0 {
				return lost("frame %d of %d is damaged (checksum): SQLite will stop replaying there, and the writes committed after it are lost", bad+1, n)
			}
		}
		return &FileProblem{File: path, Problem: fmt.Sprintf("frame %d of %d is damaged or incomplete: the last write before a process stopped; SQLite drops it", bad+1, n)}
	}
	if rest := (len(buf) - walHeaderSize) % frame; rest != 0 && n == (len(buf)-walHeaderSize)/frame {
		return &FileProblem{File: path, Problem: fmt.Sprintf("it ends in %d bytes of an incomplete frame: the last write before a process stopped, or the file was cut short; SQLite drops it", rest)}
	}
	return nil
}

// walChecksum continues SQLite's WAL checksum over b (a multiple of 8
// bytes), reading 32-bit words in the log's byte order.
func walChecksum(order binary.ByteOrder, b []byte, s0, s1 uint32) (uint32, uint32) {
	for i := 0; i+8 <= len(b); i += 8 {
		s0 += order.Uint32(b[i:]) + s1
		s1 += order.Uint32(b[i+4:]) + s0
	}
	return s0, s1
}
