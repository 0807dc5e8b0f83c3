package hook

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/recall-mem/recall"
)

// TranscriptTailBytes is how much of a transcript's end Stop reads: the
// last turn is at the end, and a hook must not read a whole long session.
const TranscriptTailBytes = 1 << 20

// Turn is what the assistant produced since the user's last prompt.
type Turn struct {
	Thinking []string
	Text     []string
}

// transcriptEntry is the part of a Claude Code transcript line recall
// reads: user and assistant messages whose content is a string or a list
// of typed blocks.
type transcriptEntry struct {
	Type    string `json:"type"`
	Message struct {
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

type contentBlock struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	Thinking string `json:"thinking"`
}

// LastTurn reads the tail of the transcript at path (JSON Lines) and
// returns the assistant's thinking and text after the last prompt the user
// typed. Lines it cannot parse are skipped.
func LastTurn(path string) (*Turn, error) {
	if !strings.HasSuffix(path, ".jsonl") {
		return nil, fmt.Errorf("transcript %q is not a .jsonl file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	start := max(fi.Size()-TranscriptTailBytes, 0)
	buf := make([]byte, fi.Size()-start)
	if _, err := f.ReadAt(buf, start); err != nil && err != io.EOF {
		return nil, err
	}
	if start > 0 { // the first line is cut: drop it
		if i := bytes.IndexByte(buf, '\n'); i >= 0 {
			buf = buf[i+1:]
		}
	}
	turn := &Turn{}
	sc := bufio.NewScanner(bytes.NewReader(buf))
	sc.Buffer(make([]byte, 0, 64*1024), TranscriptTailBytes)
	for sc.Scan() {
		var e transcriptEntry
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			continue
		}
		var blocks []contentBlock
		var s string
		if json.Unmarshal(e.Message.Content, &s) == nil {
			blocks = []contentBlock{{Type: "text", Text: s}}
		} else {
			_ = json.Unmarshal(e.Message.Content, &blocks)
		}
		switch e.Type {
		case "user":
			for _, b := range blocks {
				if b.Type == "text" { // a typed prompt, not a tool result: a new turn
					turn = &Turn{}
					break
				}
			}
		case "assistant":
			for _, b := range blocks {
				switch {
				case b.Type == "thinking" && strings.TrimSpace(b.Thinking) != "":
					turn.Thinking = append(turn.Thinking, b.Thinking)
				case b.Type == "text" && strings.TrimSpace(b.Text) != "":
					turn.Text = append(turn.Text, b.Text)
				}
			}
		}
	}
	return turn, nil
}

// TurnObservations records a finished turn: the agent's thinking
// (agent_thinking) and its final words (agent_response).
func TurnObservations(p *Payload, t *Turn, opt Options) []*recall.Observation {
	opt = opt.withDefaults(p)
	limit := max(opt.MaxOutputBytes, maxPromptBytes)
	var out []*recall.Observation
	add := func(typ string, parts []string) {
		if len(parts) > 0 {
			c := &clipper{redactor: opt.Redactor}
			o := &recall.Observation{At: opt.Now, Type: typ, Session: p.SessionID, Project: opt.Project,
				Content: c.clip(strings.Join(parts, "\n\n"), limit)}
			meta := map[string]any{}
			c.record(meta)
			o.Metadata = metadata(meta)
			out = append(out, o)
		}
	}
	add(recall.ObsAgentThinking, t.Thinking)
	add("agent_response", t.Text)
	return out
}
