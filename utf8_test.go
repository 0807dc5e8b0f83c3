package recall

import (
	"strings"
	"testing"
)

// TestMemory_CheckUTF8 names the field that is not UTF-8, lists
// included, and checks a valid memory without allocating (every write
// and every imported memory is checked).
func TestMemory_CheckUTF8(t *testing.T) {
	ok := &Memory{ID: "tr0000000001", Title: "t", Content: "c", Tags: []string{"a", "b"}, Related: []string{"tr0000000002"},
		Anchors: []Anchor{{Path: "p", Hash: "h"}}, Metadata: []byte(`{"k":"v"}`)}
	if n := testing.AllocsPerRun(100, func() {
		if err := ok.CheckUTF8(); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("%v allocations to check a valid memory, want 0", n)
	}
	for want, change := range map[string]func(m *Memory){
		"title":       func(m *Memory) { m.Title = "\xff" },
		"metadata":    func(m *Memory) { m.Metadata = []byte("\"\xfe\"") },
		"tag":         func(m *Memory) { m.Tags = []string{"a", "\xff"} },
		"related id":  func(m *Memory) { m.Related = []string{"\xff"} },
		"anchor path": func(m *Memory) { m.Anchors = []Anchor{{Path: "\xff", Hash: "h"}} },
		"anchor hash": func(m *Memory) { m.Anchors = []Anchor{{Path: "p", Hash: "\xff"}} },
	} {
		m := *ok
		change(&m)
		err := m.CheckUTF8()
		if ErrorCode(err) != EINVALID || !strings.Contains(ErrorMessage(err), "The "+want+" is not valid UTF-8") {
			t.Errorf("%s: %v", want, err)
		}
	}
}
