package sqlite

import (
	"encoding/binary"
	"math"
	"path/filepath"
	"testing"
)

// TestMigrate_VectorsInt8 opens a store written before migration 0016,
// with float16 and float32 vectors: each is rewritten in place as the int8
// form a new store writes (same seq, no tombstone, so cached indexes stay
// valid), and a blob of no known length is left alone.
func TestMigrate_VectorsInt8(t *testing.T) {
	path := filepath.Join(t.TempDir(), "recall.db")
	old, exec := oldStore(t, path, "migrations/0016")
	exec(`INSERT INTO memories (id, collection, content, created_at, updated_at, occurred_at) VALUES ('tr00000000a1', 'default', 'x', 1, 1, 1)`)
	v := []float32{0.6, -0.8, 0, 0.25}
	var f16, f32 []byte
	for _, x := range v {
		f16 = binary.LittleEndian.AppendUint16(f16, toHalf(x))
		f32 = binary.LittleEndian.AppendUint32(f32, math.Float32bits(x))
	}
	insert := func(seq, chunk int, vec []byte) {
		exec(`INSERT INTO memory_vectors (seq, memory_seq, memory_id, chunk, version, hash, model, dim, span_start, span_end, vec)
			VALUES (?, 1, 'tr00000000a1', ?, 1, 'h', 'm', 4, 0, 1, ?)`, seq, chunk, vec)
	}
	insert(3, 0, f16)
	insert(7, 1, f32)
	insert(8, 2, []byte{1, 2, 3}) // damaged: left for the health check to find
	db := migrated(t, old, path)
	want := encodeVector(nil, func() []float32 {
		got := make([]float32, 4)
		decodeVector(got, f16)
		return got
	}())
	vecAt := func(seq int) []byte {
		t.Helper()
		var vec []byte
		if err := db.read.QueryRow(`SELECT vec FROM memory_vectors WHERE seq = ?`, seq).Scan(&vec); err != nil {
			t.Fatalf("vector %d: %v", seq, err)
		}
		return vec
	}
	if vec := vecAt(3); string(vec) != string(want) {
		t.Errorf("float16 vector became %v, want %v", vec, want)
	}
	got := make([]float32, 4)
	if vec := vecAt(7); len(vec) != 4+5 || !decodeVector(got, vec) {
		t.Fatalf("float32 vector became %v", vec)
	}
	for i := range v {
		if math.Abs(float64(got[i]-v[i])) > 0.8/254 {
			t.Errorf("float32 vector [%d]: %v, want %v", i, got[i], v[i])
		}
	}
	if vec := vecAt(8); string(vec) != string([]byte{1, 2, 3}) {
		t.Errorf("damaged blob rewritten as %v", vec)
	}
	var n, tombs int
	if err := db.read.QueryRow(`SELECT (SELECT COUNT(*) FROM memory_vectors), (SELECT COUNT(*) FROM vector_tombstones)`).Scan(&n, &tombs); err != nil || n != 3 || tombs != 0 {
		t.Fatalf("%d vectors, %d tombstones, %v", n, tombs, err)
	}
}
