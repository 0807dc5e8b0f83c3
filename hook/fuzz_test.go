package hook_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/recall-mem/recall/hook"
	"github.com/recall-mem/recall/redact"
)

// FuzzTrim checks the trim on its own: the result fits the limit (or the
// marker, when the limit is smaller than it), keeps a head and a tail of
// the text on rune boundaries, and leaves short text alone.
func FuzzTrim(f *testing.F) {
	f.Add("hello world", 5)
	f.Add(strings.Repeat("é", 100)+"END", 40)
	f.Add(strings.Repeat("x", 5000), 4096)
	f.Add("\xff\xfe\xfd"+strings.Repeat("a", 300), 64)
	f.Fuzz(func(t *testing.T, s string, limit int) {
		limit %= 1 << 16
		got := hook.Trim(s, limit)
		if limit <= 0 || len(s) <= limit {
			if got != s {
				t.Fatalf("Trim(%q, %d) changed text within the limit: %q", s, limit, got)
			}
			return
		}
		head, rest, ok := strings.Cut(got, "\n[… ")
		if !ok {
			t.Fatalf("no trim marker in %q", got)
		}
		_, tail, ok := strings.Cut(rest, " bytes trimmed …]\n")
		if !ok || !strings.HasPrefix(s, head) || !strings.HasSuffix(s, tail) {
			t.Fatalf("Trim(%q, %d) = %q: not a head and a tail of the text", s, limit, got)
		}
		if marker := len(got) - len(head) - len(tail); len(got) > max(limit, marker) {
			t.Fatalf("Trim(_, %d) = %d bytes", limit, len(got))
		}
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Fatalf("Trim cut a rune: %q", got)
		}
	})
}

// secretTools are the payload shapes whose text the hook trims: the tool
// and where in the payload the text goes.
var secretTools = []struct {
	tool, field string
	response    bool
}{
	{"Bash", "stdout", true},
	{"Bash", "stderr", true},
	{"Write", "content", false},
	{"Edit", "new_string", false},
	{"Task", "prompt", false},
	{"TodoWrite", "todos", false},
	{"mcp__github__get_file", "text", true},
	{"SomethingElse", "input", false},
}

// FuzzObservations_Secret plants a GitHub token between arbitrary text in
// every trimmed field of a tool payload, and trims it at arbitrary limits:
// whatever the trim cuts, no eight characters of the token in a row may
// reach the store (the observation as the store's redactor leaves it), and
// every observation is valid UTF-8 with a type.
func FuzzObservations_Secret(f *testing.F) {
	const token = "ghp_R7kQ2mXw9LpZ4vB8nC3dF6hJ1sT5yU0aE2gI"
	frags := fragments(token[4:], 8)
	red := redact.MustNew(redact.Config{})
	f.Add(uint8(0), strings.Repeat("build ok\n", 100), "done", uint16(200))
	f.Add(uint8(2), "", strings.Repeat("z", 3000), uint16(64))
	f.Add(uint8(6), "-----BEGIN RSA PRIVATE KEY-----\n", "", uint16(100))
	f.Add(uint8(4), strings.Repeat("é", 700), "\xff", uint16(1000))
	f.Fuzz(func(t *testing.T, which uint8, before, after string, limit uint16) {
		if leaked(before+after, frags) != "" {
			t.Skip("the text around the token holds part of it")
		}
		shape := secretTools[int(which)%len(secretTools)]
		text := before + " " + token + " " + after
		part, _ := json.Marshal(map[string]string{shape.field: text, "file_path": "a.go", "command": "make"})
		p := &hook.Payload{SessionID: "s", Event: hook.EventPostToolUse, ToolName: shape.tool, ToolInput: part}
		if shape.response {
			p.ToolInput, p.ToolResponse = json.RawMessage(`{"command":"make"}`), part
		}
		for _, o := range hook.Observations(p, hook.Options{MaxOutputBytes: int(limit), Redactor: red}) {
			stored, _ := red.Redact(o.Content) // as the store does
			if f := leaked(stored, frags); f != "" {
				t.Fatalf("%s at limit %d: %q of the token kept in %q", shape.tool, limit, f, o.Content)
			}
			if o.Type == "" || !utf8.ValidString(o.Content) {
				t.Fatalf("observation %+v", o)
			}
		}
	})
}
