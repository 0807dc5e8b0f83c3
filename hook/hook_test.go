package hook_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/hook"
)

var update = flag.Bool("update", false, "rewrite golden files")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./hook -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs:\ngot:\n%s\nwant:\n%s", name, got, want)
	}
}

// TestObservations maps every recorded payload fixture to observations
// and compares them with the golden file beside it.
func TestObservations(t *testing.T) {
	files, err := filepath.Glob("testdata/payloads/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	now := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			in, err := os.Open(f)
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			p, err := hook.Parse(in)
			if err != nil {
				t.Fatal(err)
			}
			obs := hook.Observations(p, hook.Options{Now: now, MaxOutputBytes: 200})
			if obs == nil {
				obs = []*recall.Observation{}
			}
			got, err := json.MarshalIndent(obs, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden(t, "observations/"+name+".json", append(got, '\n'))
		})
	}
}

func TestParse(t *testing.T) {
	for _, tc := range []struct{ name, in string }{
		{"Empty", ""},
		{"NotObject", `["SessionStart"]`},
		{"Malformed", `{"hook_event_name": "Stop",`},
		{"NoEvent", `{"session_id": "s"}`},
		{"NoSession", `{"hook_event_name": "Stop"}`},
	} {
		t.Run("Err"+tc.name, func(t *testing.T) {
			if _, err := hook.Parse(strings.NewReader(tc.in)); recall.ErrorCode(err) != recall.EINVALID {
				t.Errorf("err = %v, want EINVALID", err)
			}
		})
	}
	t.Run("UnknownFieldsIgnored", func(t *testing.T) {
		p, err := hook.Parse(strings.NewReader(`{"session_id":"s","hook_event_name":"Stop","new_field":{"x":1}}`))
		if err != nil || p.Event != hook.EventStop {
			t.Fatalf("got %+v, %v", p, err)
		}
	})
}

func TestSessionStartOutput(t *testing.T) {
	out, err := hook.SessionStartOutput("## Recent sessions\n- fixed <login> & \"tests\"")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "session_start_output.json", out)
}

func TestTrim(t *testing.T) {
	s := strings.Repeat("é", 1000) + "END"
	got := hook.Trim(s, 300)
	if len(got) > 300 || !utf8.ValidString(got) || !strings.HasSuffix(got, "END") || !strings.Contains(got, "bytes trimmed") {
		t.Errorf("Trim = %d bytes %q", len(got), got)
	}
	if hook.Trim("short", 300) != "short" {
		t.Error("short text changed")
	}
}

// FuzzParse feeds arbitrary bytes to the parser and the mapping: neither
// may panic, and every observation made has a type.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/payloads/*.json")
	for _, name := range files {
		b, _ := os.ReadFile(name)
		f.Add(b)
	}
	f.Add([]byte(`{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"Bash","tool_response":"boom"}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		p, err := hook.Parse(bytes.NewReader(in))
		if err != nil {
			return
		}
		for _, o := range hook.Observations(p, hook.Options{MaxOutputBytes: 64}) {
			if o.Type == "" {
				t.Fatalf("observation without type from %q", in)
			}
		}
	})
}

func TestLastTurn(t *testing.T) {
	turn, err := hook.LastTurn("testdata/transcript.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	p := &hook.Payload{SessionID: "abc123", Event: hook.EventStop, CWD: "/home/u/app"}
	obs := hook.TurnObservations(p, turn, hook.Options{Now: time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)})
	got, err := json.MarshalIndent(obs, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "observations/stop_transcript.json", append(got, '\n'))
	if _, err := hook.LastTurn("testdata/payloads/stop.json"); err == nil {
		t.Error("read a file that is not a .jsonl transcript")
	}
}
