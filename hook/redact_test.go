package hook_test

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/recall-mem/recall/hook"
	"github.com/recall-mem/recall/redact"
)

// randomText returns n characters drawn from alphabet by a seeded source,
// so a secret made of it is unlike anything else in the output.
func randomText(r *rand.Rand, alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[r.Intn(len(alphabet))]
	}
	return string(b)
}

// fragments lists every window of size bytes of secret (without line
// breaks): finding any of them in the output means part of the secret
// was kept.
func fragments(secret string, size int) []string {
	s := strings.ReplaceAll(secret, "\n", "")
	var out []string
	for i := 0; i+size <= len(s); i++ {
		out = append(out, s[i:i+size])
	}
	return out
}

func leaked(text string, frags []string) string {
	for _, f := range frags {
		if strings.Contains(text, f) {
			return f
		}
	}
	return ""
}

// bashPayload is a PostToolUse payload for a Bash command with stdout and
// a description.
func bashPayload(t *testing.T, stdout, description string) *hook.Payload {
	t.Helper()
	in, _ := json.Marshal(map[string]string{"command": "cat notes.txt", "description": description})
	resp, _ := json.Marshal(map[string]string{"stdout": stdout})
	return &hook.Payload{SessionID: "s", Event: hook.EventPostToolUse, ToolName: "Bash", ToolInput: in, ToolResponse: resp}
}

// TestObservations_RedactBeforeTrim puts a PEM key and a GitHub token where
// the trim cuts them (the key's BEGIN line trimmed away with its body kept
// in the tail, the token split by the trim marker) at every offset around
// the cut: the redactor must see the whole text, so no fragment of either
// survives in the observation.
func TestObservations_RedactBeforeTrim(t *testing.T) {
	r := rand.New(rand.NewSource(15))
	const limit = 1000
	red := redact.MustNew(redact.Config{})
	opt := hook.Options{MaxOutputBytes: limit, Redactor: red}
	filler := strings.Repeat("build step ok\n", 300)

	t.Run("PEM", func(t *testing.T) {
		var body strings.Builder
		for range 26 {
			body.WriteString(randomText(r, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", 64) + "\n")
		}
		key := "-----BEGIN RSA PRIVATE KEY-----\n" + body.String() + "-----END RSA PRIVATE KEY-----"
		frags := fragments(body.String(), 12)
		for _, tail := range []string{"", "\nexit 0", "\n" + strings.Repeat("x", 200)} {
			obs := hook.Observations(bashPayload(t, filler+key+tail, ""), opt)
			if f := leaked(obs[0].Content, frags); f != "" {
				t.Fatalf("key body fragment %q kept in %q", f, obs[0].Content)
			}
			if !strings.Contains(obs[0].Content, "bytes trimmed") {
				t.Fatal("the output was not trimmed: the test proves nothing")
			}
		}
	})

	t.Run("GitHubToken", func(t *testing.T) {
		token := "ghp_" + randomText(r, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", 36)
		frags := fragments(token[4:], 8)
		out := strings.Repeat("y", 3000)
		for at := 500; at < 800; at++ {
			text := out[:at] + " " + token + " " + out[at:]
			obs := hook.Observations(bashPayload(t, text, ""), opt)
			if f := leaked(obs[0].Content, frags); f != "" {
				t.Fatalf("token at byte %d: fragment %q kept in %q", at, f, obs[0].Content)
			}
		}
	})

	t.Run("EveryTrimmedField", func(t *testing.T) {
		token := "ghp_" + randomText(r, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", 36)
		frags := fragments(token[4:], 8)
		long := strings.Repeat("z", 600) + " " + token + " " + strings.Repeat("z", 20000)
		payloads := []string{
			`{"session_id":"s","hook_event_name":"UserPromptSubmit","prompt":%q}`,
			`{"session_id":"s","hook_event_name":"PreCompact","custom_instructions":%q}`,
			`{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"Write","tool_input":{"file_path":"a","content":%q}}`,
			`{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{"file_path":"a","old_string":%q}}`,
			`{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"Task","tool_input":{"prompt":%q}}`,
			`{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"TodoWrite","tool_input":{"todos":%q}}`,
			`{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"mcp__x__y","tool_input":{"q":%q}}`,
			`{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"Other","tool_input":{"q":%q}}`,
		}
		for _, format := range payloads {
			p, err := hook.Parse(strings.NewReader(fmt.Sprintf(format, long)))
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range hook.Observations(p, hook.Options{MaxOutputBytes: 1000, Redactor: red}) {
				if f := leaked(o.Content, frags); f != "" {
					t.Errorf("%s: fragment %q kept", format[:60], f)
				}
			}
		}
	})
}
