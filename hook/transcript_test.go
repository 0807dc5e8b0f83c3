package hook_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recall-mem/recall/hook"
)

// FuzzLastTurn feeds any transcript tail to LastTurn: it never fails on
// content, keeps no blank parts, and whatever came before, a prompt the
// user types starts an empty turn and the assistant's answer after it is
// the turn's text.
func FuzzLastTurn(f *testing.F) {
	seed, err := os.ReadFile("testdata/transcript.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	for _, s := range []string{"", "\n", "{", `{"type":"user","message":{"content":[{"type":"tool_result"}]}}`,
		`{"type":"assistant","message":{"content":"plain string"}}`, "\xff\xfe\n{\"type\":\"assistant\"}"} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	const prompt = `{"type":"user","message":{"content":"next question"}}`
	const answer = `{"type":"assistant","message":{"content":[{"type":"text","text":"the answer"}]}}`
	f.Fuzz(func(t *testing.T, tail []byte) {
		p := filepath.Join(dir, "t.jsonl")
		write := func(b []byte) {
			if err := os.WriteFile(p, b, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		write(tail)
		turn, err := hook.LastTurn(p)
		if err != nil {
			t.Fatalf("LastTurn: %v", err)
		}
		for _, s := range append(append([]string(nil), turn.Thinking...), turn.Text...) {
			if strings.TrimSpace(s) == "" {
				t.Fatalf("blank part in %+v", turn)
			}
		}
		write(bytes.Join([][]byte{tail, []byte(prompt), []byte(answer)}, []byte("\n")))
		turn, err = hook.LastTurn(p)
		if err != nil {
			t.Fatalf("LastTurn with a prompt appended: %v", err)
		}
		if len(turn.Thinking) != 0 || len(turn.Text) != 1 || turn.Text[0] != "the answer" {
			t.Fatalf("after a new prompt and answer: %+v", turn)
		}
	})
}
