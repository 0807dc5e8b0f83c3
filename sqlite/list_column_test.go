package sqlite

import (
	"database/sql"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/recall-mem/recall"
)

// The list columns decode as encoding/json decodes them, whatever they
// hold: the scan's lists and the others alike, errors included.
func TestDecodeStrings_AsEncodingJSON(t *testing.T) {
	inputs := []string{"", "[]", `["a"]`, `["t0","t1"]`, `["a b","c/d"]`, `[""]`, `["",""]`,
		`["\u003c"]`, `["a\"b"]`, `["é"]`, "[\"a\xff\"]", "[\"a\tb\"]", `[ "a" ]`, `["a",]`, `["a"x]`, `[`, `]`,
		`["a"`, `[1]`, `["a",1]`, `null`, `{}`, `[""""]`, `[",",","]`, `["]"]`, `["a","b"]x`}
	r := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte(`[]",ab \/` + "\x7f\x1f")
	for range 20000 {
		b := make([]byte, r.IntN(12))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		inputs = append(inputs, string(b))
	}
	for _, in := range inputs {
		var got, want []string
		gotErr := decodeStrings("tags", in, &got)
		var wantErr error
		if in != "" {
			wantErr = json.Unmarshal([]byte(in), &want)
		}
		if (gotErr != nil) != (wantErr != nil) || !reflect.DeepEqual(got, want) {
			t.Errorf("%q: got %#v (%v), encoding/json %#v (%v)", in, got, gotErr, want, wantErr)
		}
	}
	// What recall writes is read by the scan.
	for _, in := range []string{"[]", `["t0"]`, `["release notes","ops/billing","a-b_c.d"]`} {
		if _, ok := plainStrings(in); !ok {
			t.Errorf("%q went to encoding/json", in)
		}
	}
	var anchors, wantAnchors []recall.Anchor
	if err := decodeAnchors("[]", &anchors); err != nil || !reflect.DeepEqual(anchors, []recall.Anchor{}) {
		t.Errorf("anchors [] = %#v (%v), want an empty list", anchors, err)
	}
	in := `[{"path":"a.go","line":3}]`
	anchors = nil
	if err := decodeAnchors(in, &anchors); err != nil || json.Unmarshal([]byte(in), &wantAnchors) != nil || !reflect.DeepEqual(anchors, wantAnchors) {
		t.Errorf("anchors %s = %#v (%v), want %#v", in, anchors, err, wantAnchors)
	}
}

// fakeRow scans the values of one stored memory row, as database/sql
// would into scanMemory's destinations.
type fakeRow []any

func (r fakeRow) Scan(dest ...any) error {
	for i, d := range dest {
		reflect.ValueOf(d).Elem().Set(reflect.ValueOf(r[i]))
	}
	return nil
}

// Reading a row as the benchmark's memories are stored (one tag, no
// related memories or anchors) allocates the memory and its tags, not
// encoding/json's decoding state for each list column.
func TestScanMemory_Allocations(t *testing.T) {
	row := fakeRow{"m1", sql.NullString{}, "default", "", "title", "content", `["t0"]`, "", "", `[]`, "", "", "", 1.0, "hot", false,
		"active", `[]`, "{}", int64(1), int64(2), sql.NullInt64{}, int64(3), sql.NullInt64{}, 1}
	m, err := scanMemory(row)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(m.Tags, []string{"t0"}) || m.Related == nil || len(m.Related) != 0 || m.Anchors == nil || len(m.Anchors) != 0 {
		t.Fatalf("lists %#v %#v %#v", m.Tags, m.Related, m.Anchors)
	}
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := scanMemory(row); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("%.0f allocations a row", allocs)
	if allocs > 5 {
		t.Errorf("scanMemory allocates %.0f times a row, want at most 5", allocs)
	}
}

// FuzzDecodeStrings: whatever a list column holds, the scan and
// encoding/json agree on the list and on whether it is one.
func FuzzDecodeStrings(f *testing.F) {
	for _, s := range []string{"[]", `["a","b c"]`, `["a\"b"]`, `[""]`, `["a",]`, "[\"a\xff\"]", `null`, `["]"]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if in == "" {
			return // an empty column is no list; encoding/json refuses it
		}
		var got, want []string
		gotErr := decodeStrings("tags", in, &got)
		wantErr := json.Unmarshal([]byte(in), &want)
		if (gotErr != nil) != (wantErr != nil) || !reflect.DeepEqual(got, want) {
			t.Errorf("%q: got %#v (%v), encoding/json %#v (%v)", in, got, gotErr, want, wantErr)
		}
	})
}
