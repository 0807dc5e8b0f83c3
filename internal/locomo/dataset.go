// Package locomo reads the LoCoMo long-conversation benchmark (Maharana et
// al., ACL 2024) and scores retrieval against its evidence turns. The data
// is CC BY-NC and is never part of this repository; callers pass its path.
package locomo

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/recall-mem/recall/internal/lazyre"
)

// Turn is one utterance of a conversation.
type Turn struct {
	ID      string // normalised dialog id, "D<session>:<n>"
	Session int
	Speaker string
	Text    string
	Caption string // the BLIP caption of a shared image, if any
	At      time.Time
}

// Content is the memory text for a turn: "<speaker>: <text>", plus
// " [shares <caption>]" for an image turn.
func (t Turn) Content() string {
	s := t.Speaker + ": " + t.Text
	if t.Caption != "" {
		s += " [shares " + t.Caption + "]"
	}
	return s
}

// Question is one QA item with its normalised gold evidence.
type Question struct {
	Text     string
	Category int
	Evidence []string // normalised ids that exist in the conversation
}

// Conversation is one sample: its turns in order and its questions.
type Conversation struct {
	ID        string
	Turns     []Turn
	Questions []Question
	// Skipped counts questions without usable evidence; Dropped counts
	// evidence ids that do not exist in the conversation.
	Skipped, Dropped int
}

// Last returns the time of the last session.
func (c *Conversation) Last() time.Time {
	var last time.Time
	for _, t := range c.Turns {
		if t.At.After(last) {
			last = t.At
		}
	}
	return last
}

type rawSample struct {
	SampleID     string                     `json:"sample_id"`
	Conversation map[string]json.RawMessage `json:"conversation"`
	QA           []struct {
		Question string `json:"question"`
		Evidence []string
		Category int `json:"category"`
	} `json:"qa"`
}

type rawTurn struct {
	Speaker string `json:"speaker"`
	DiaID   string `json:"dia_id"`
	Text    string `json:"text"`
	Caption string `json:"blip_caption"`
}

// Load reads a LoCoMo JSON file.
func Load(path string) ([]*Conversation, error) {
	buf, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(buf)
}

var sessionKey = lazyre.New(`^session_(\d+)$`)

// sessionDate is how LoCoMo writes a session's time: "1:56 pm on 8 May, 2023".
const sessionDate = "3:04 pm on 2 January, 2006"

// Parse decodes LoCoMo JSON, normalising evidence ids and counting the ones
// it drops.
func Parse(buf []byte) ([]*Conversation, error) {
	var raw []rawSample
	if err := json.Unmarshal(buf, &raw); err != nil {
		return nil, fmt.Errorf("locomo: %w", err)
	}
	var out []*Conversation
	for _, s := range raw {
		c := &Conversation{ID: s.SampleID}
		var sessions []int
		for k := range s.Conversation {
			if m := sessionKey().FindStringSubmatch(k); m != nil {
				n, _ := strconv.Atoi(m[1])
				sessions = append(sessions, n)
			}
		}
		sort.Ints(sessions)
		known := map[string]bool{}
		for _, n := range sessions {
			var date string
			if err := json.Unmarshal(s.Conversation[fmt.Sprintf("session_%d_date_time", n)], &date); err != nil {
				return nil, fmt.Errorf("locomo %s session %d: date: %w", s.SampleID, n, err)
			}
			at, err := time.Parse(sessionDate, strings.ToLower(strings.TrimSpace(date)))
			if err != nil {
				return nil, fmt.Errorf("locomo %s session %d: %w", s.SampleID, n, err)
			}
			var turns []rawTurn
			if err := json.Unmarshal(s.Conversation[fmt.Sprintf("session_%d", n)], &turns); err != nil {
				return nil, fmt.Errorf("locomo %s session %d: %w", s.SampleID, n, err)
			}
			for _, t := range turns {
				ids := NormaliseEvidence(t.DiaID)
				if len(ids) != 1 {
					return nil, fmt.Errorf("locomo %s: bad dialog id %q", s.SampleID, t.DiaID)
				}
				known[ids[0]] = true
				c.Turns = append(c.Turns, Turn{ID: ids[0], Session: n, Speaker: t.Speaker, Text: t.Text, Caption: t.Caption, At: at})
			}
		}
		for _, q := range s.QA {
			var ev []string
			seen := map[string]bool{}
			for _, e := range q.Evidence {
				for _, id := range NormaliseEvidence(e) {
					switch {
					case !known[id]:
						c.Dropped++
					case !seen[id]:
						seen[id] = true
						ev = append(ev, id)
					}
				}
			}
			if len(ev) == 0 {
				c.Skipped++
				continue
			}
			c.Questions = append(c.Questions, Question{Text: q.Question, Category: q.Category, Evidence: ev})
		}
		out = append(out, c)
	}
	return out, nil
}

var evidenceID = lazyre.New(`D\s*:?\s*(\d+)\s*:\s*(\d+)`)

// NormaliseEvidence extracts the dialog ids in one evidence entry, mending
// the dataset's glitches: several ids in one string ("D8:6; D9:17"), a
// stray colon ("D:11:26") and zero padding ("D30:05").
func NormaliseEvidence(s string) []string {
	var out []string
	for _, m := range evidenceID().FindAllStringSubmatch(s, -1) {
		sess, _ := strconv.Atoi(m[1])
		turn, _ := strconv.Atoi(m[2])
		out = append(out, fmt.Sprintf("D%d:%d", sess, turn))
	}
	return out
}

// SessionOf returns the session number of a normalised dialog id.
func SessionOf(id string) int {
	if m := evidenceID().FindStringSubmatch(id); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return -1
}
