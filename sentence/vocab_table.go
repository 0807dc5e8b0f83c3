package sentence

import (
	"encoding/binary"
	"errors"
	"math"
)

// The vocabulary table is vocab.json in the form the tokenizer reads it:
// an open-addressing hash table over the pieces, laid out so that a
// process uses the embedded bytes as they are. Building the 8,002-entry
// map from the JSON took 3–4 ms of every process that embeds, on the
// path of its first query. Little-endian:
//
//	magic "RCLVOC01", u32 entries, u32 slots (a power of two),
//	u32 maxLen (longest piece in runes), u32 piece bytes,
//	slots × u16 (id+1 of the piece whose hash lands there; 0 is empty),
//	(entries+1) × u32 piece offsets, entries × f64 scores,
//	entries × u8 widths (UTF-16 units), the pieces' bytes
//
// Reserved ids have no slot, as they have no map entry: they never match
// text. TestVocabTableMatchesJSON checks that the file is the one
// buildVocabTable makes from vocab.json (`go test ./sentence -run
// TestVocabTable -update` rewrites it).
const vocabMagic = "RCLVOC01"

// vocabTable reads the table in place.
type vocabTable struct {
	slots   []byte // slots × u16
	offsets []byte // (entries+1) × u32
	scores  []byte // entries × f64
	widths  []byte // entries × u8
	pieces  []byte
	mask    uint32
	entries int
	maxLen  int
}

// pieceHash is FNV-1a over the piece's bytes.
func pieceHash(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

// buildVocabTable lays out the pieces of vocab.json as described above.
func buildVocabTable(vocabJSON []byte) ([]byte, error) {
	tok, err := NewTokenizer(vocabJSON)
	if err != nil {
		return nil, err
	}
	entries, _ := parseVocab(vocabJSON) // NewTokenizer read them already
	n := len(entries)
	if n >= math.MaxUint16 {
		return nil, errors.New("vocabulary too large for 16-bit slots")
	}
	slots := 1
	for slots < 2*n {
		slots *= 2
	}
	table := make([]uint16, slots)
	var pieces []byte
	offsets := make([]uint32, 0, n+1)
	for id, e := range entries {
		offsets = append(offsets, uint32(len(pieces)))
		pieces = append(pieces, e.piece...)
		if tok.width[id] > math.MaxUint8 {
			return nil, errors.New("vocabulary piece too long for an 8-bit width")
		}
		if id < reserved {
			continue
		}
		// A piece listed twice keeps its last id, as the map does.
		for i := pieceHash(e.piece) & uint32(slots-1); ; i = (i + 1) & uint32(slots-1) {
			if table[i] == 0 || entries[table[i]-1].piece == e.piece {
				table[i] = uint16(id + 1)
				break
			}
		}
	}
	offsets = append(offsets, uint32(len(pieces)))
	out := []byte(vocabMagic)
	for _, v := range []int{n, slots, tok.maxLen, len(pieces)} {
		out = binary.LittleEndian.AppendUint32(out, uint32(v))
	}
	for _, v := range table {
		out = binary.LittleEndian.AppendUint16(out, v)
	}
	for _, v := range offsets {
		out = binary.LittleEndian.AppendUint32(out, v)
	}
	for _, e := range entries {
		out = binary.LittleEndian.AppendUint64(out, math.Float64bits(e.score))
	}
	for _, w := range tok.width {
		out = append(out, byte(w))
	}
	return append(out, pieces...), nil
}

// readVocabTable checks the table's sizes and slices it; the bytes are
// used in place.
func readVocabTable(b []byte) (*vocabTable, error) {
	bad := errors.New("vocabulary table damaged: rebuild it with `go test ./sentence -run TestVocabTable -update`")
	head := len(vocabMagic) + 16
	if len(b) < head || string(b[:len(vocabMagic)]) != vocabMagic {
		return nil, bad
	}
	u := func(i int) int { return int(binary.LittleEndian.Uint32(b[len(vocabMagic)+4*i:])) }
	n, slots, maxLen, nPieces := u(0), u(1), u(2), u(3)
	if n == 0 || slots < n || slots&(slots-1) != 0 || slots > 1<<20 || n > 1<<20 {
		return nil, bad
	}
	sizes := []int{2 * slots, 4 * (n + 1), 8 * n, n, nPieces}
	parts := make([][]byte, len(sizes))
	off := head
	for i, s := range sizes {
		if s < 0 || off+s > len(b) {
			return nil, bad
		}
		parts[i], off = b[off:off+s:off+s], off+s
	}
	if off != len(b) {
		return nil, bad
	}
	t := &vocabTable{slots: parts[0], offsets: parts[1], scores: parts[2], widths: parts[3], pieces: parts[4],
		mask: uint32(slots - 1), entries: n, maxLen: maxLen}
	prev := 0
	for id := 0; id <= n; id++ { // offsets must rise within the pieces
		o := t.offset(id)
		if o < prev || o > nPieces {
			return nil, bad
		}
		prev = o
	}
	empty := 0
	for i := 0; i < slots; i++ {
		switch v := int(binary.LittleEndian.Uint16(t.slots[2*i:])); {
		case v > n:
			return nil, bad
		case v == 0:
			empty++
		}
	}
	if empty == 0 { // a lookup of an absent piece would never end
		return nil, bad
	}
	return t, nil
}

func (t *vocabTable) offset(id int) int {
	return int(binary.LittleEndian.Uint32(t.offsets[4*id:]))
}

// lookup finds the piece s.
func (t *vocabTable) lookup(s string) (piece, bool) {
	for i := pieceHash(s) & t.mask; ; i = (i + 1) & t.mask {
		slot := int(binary.LittleEndian.Uint16(t.slots[2*i:]))
		if slot == 0 {
			return piece{}, false
		}
		id := slot - 1
		if string(t.pieces[t.offset(id):t.offset(id+1)]) == s {
			return piece{id: id, score: math.Float64frombits(binary.LittleEndian.Uint64(t.scores[8*id:]))}, true
		}
	}
}

// newTableTokenizer is the tokenizer over a vocabulary table.
func newTableTokenizer(b []byte) (*Tokenizer, error) {
	vt, err := readVocabTable(b)
	if err != nil {
		return nil, err
	}
	t := &Tokenizer{table: vt, width: make([]int, vt.entries), maxLen: vt.maxLen}
	for id := range t.width {
		t.width[id] = max(1, int(vt.widths[id]))
	}
	return t, nil
}
