package hook

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzParseObject checks the order-keeping settings parser: it never
// panics, and what it accepts it writes back as the same JSON.
func FuzzParseObject(f *testing.F) {
	f.Add([]byte(`{"b": 1, "a": {"x": [1, 2]}, "c": "s"}`))
	f.Add([]byte(`{}`))
	f.Add([]byte(`  `))
	f.Add([]byte(`{"a": 1} {"b": 2}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		o, err := parseObject(in)
		if err != nil {
			return
		}
		out, err := indent(o)
		if err != nil {
			t.Fatalf("indent: %v", err)
		}
		if len(bytes.TrimSpace(in)) == 0 {
			return
		}
		var a, b any
		if json.Unmarshal(in, &a) != nil {
			return // duplicate keys and the like: the decoder was lenient
		}
		if err := json.Unmarshal(out, &b); err != nil {
			t.Fatalf("wrote invalid JSON %q from %q", out, in)
		}
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if !bytes.Equal(ja, jb) {
			t.Fatalf("round trip changed %s into %s", ja, jb)
		}
	})
}
