package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/recall-mem/recall"
)

// maxSummaryRunes caps a reworded summary: a rollup is one line of context.
const maxSummaryRunes = 400

// Summarizer rewords rollup summaries with a chat completions endpoint
// (POST {endpoint}/chat/completions). It is optional and off by default;
// callers keep the deterministic summary whenever it fails.
type Summarizer struct {
	Endpoint string // base URL, e.g. http://127.0.0.1:11434/v1
	Model    string
	APIKey   string        // sent as a bearer token when set
	Timeout  time.Duration // per request; 0 means 20 seconds
	Client   *http.Client  // nil means http.DefaultClient
}

var _ recall.RollupSummarizer = (*Summarizer)(nil)

type message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type chatRequest struct {
	Model       string    `json:"model"`
	Messages    []message `json:"messages"`
	Temperature float64   `json:"temperature"`
	MaxTokens   int       `json:"max_tokens"`
}

type chatResponse struct {
	Choices []struct {
		Message message `json:"message"`
	} `json:"choices"`
}

const systemPrompt = `You rewrite memory rollups for an AI agent. Given what a user's entries said during a time bucket, write ONE plain sentence (at most 60 words) stating the current value first, then what changed, keeping every fact and number. No preamble, no markdown.`

// SummarizeRollup asks the model for a one-sentence summary of r. Returns
// EUNAVAILABLE when the endpoint fails, times out or answers nothing usable.
func (c *Summarizer) SummarizeRollup(ctx context.Context, r *recall.Rollup) (string, error) {
	body, err := json.Marshal(chatRequest{
		Model: c.Model, Temperature: 0, MaxTokens: 200,
		Messages: []message{{Role: "system", Content: systemPrompt}, {Role: "user", Content: Prompt(r)}},
	})
	if err != nil {
		return "", err
	}
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = 20 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	resp, buf, err := post(ctx, c.Client, c.Endpoint, "/chat/completions", c.APIKey, body, 1<<20)
	var bad *endpointError
	if errors.As(err, &bad) {
		return "", recall.Errorf(recall.EINVALID, "Invalid [rollup] chat_endpoint %q: %v.", c.Endpoint, bad.err)
	}
	if err != nil {
		return "", unavailable(fmt.Errorf("chat: %w", err))
	}
	if resp.StatusCode != http.StatusOK {
		return "", unavailable(fmt.Errorf("chat: %w", statusError(resp, buf)))
	}
	var out chatResponse
	if err := json.Unmarshal(buf, &out); err != nil {
		return "", unavailable(fmt.Errorf("chat: decode: %w", err))
	}
	if len(out.Choices) == 0 {
		return "", unavailable(errors.New("chat: no choices in the answer"))
	}
	text := strings.Join(strings.Fields(out.Choices[0].Message.Content), " ")
	if text == "" {
		return "", unavailable(errors.New("chat: empty answer"))
	}
	if r := []rune(text); len(r) > maxSummaryRunes {
		text = string(r[:maxSummaryRunes-1]) + "…"
	}
	return text, nil
}

// unavailable wraps err as EUNAVAILABLE, keeping the chain for the log.
func unavailable(err error) error {
	return fmt.Errorf("%w: %w", recall.Errorf(recall.EUNAVAILABLE, "The chat summariser cannot be reached; the deterministic summary is kept."), err)
}

// Prompt is the user message for r: its key and type, bucket, and the
// tally with counts and times, latest first.
func Prompt(r *recall.Rollup) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Bucket: %s from %s to %s\nType: %s\n", r.BucketType, r.BucketStart.Format(time.RFC3339), r.BucketEnd.Format(time.RFC3339), r.MemoryType)
	if r.Key != "" {
		fmt.Fprintf(&b, "About: %s\n", r.Key)
	}
	fmt.Fprintf(&b, "Entries: %d (confidence %.2f)\nValues, latest first:\n", r.Entries, r.Confidence)
	for _, v := range r.Values {
		fmt.Fprintf(&b, "- %q said %d time(s), last at %s\n", v.Text, v.Count, v.Last.Format(time.RFC3339))
	}
	fmt.Fprintf(&b, "Deterministic summary: %s\n", r.Summary)
	return b.String()
}
