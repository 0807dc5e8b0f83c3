// Package hook turns agent hook payloads (Claude Code first) into
// observations, and formats what a hook prints back to the agent.
package hook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/recall-mem/recall"
)

// Claude Code hook events recall handles.
const (
	EventSessionStart     = "SessionStart"
	EventUserPromptSubmit = "UserPromptSubmit"
	EventPostToolUse      = "PostToolUse"
	EventPreCompact       = "PreCompact"
	EventStop             = "Stop"
	EventSessionEnd       = "SessionEnd"
)

// Events lists the events `recall install claude` registers.
var Events = []string{EventSessionStart, EventUserPromptSubmit, EventPostToolUse, EventPreCompact, EventStop, EventSessionEnd}

// MaxPayloadBytes bounds what a hook reads from stdin; a tool response
// larger than this is not worth holding in memory to trim.
const MaxPayloadBytes = 32 << 20

// Payload is a Claude Code hook input: the common fields every event
// carries and the fields of each event. Fields an event does not send stay
// zero.
type Payload struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	CWD            string `json:"cwd"`
	PermissionMode string `json:"permission_mode"`
	Event          string `json:"hook_event_name"`

	// SessionStart: startup, resume, clear or compact.
	Source string `json:"source"`
	Model  string `json:"model"`
	// UserPromptSubmit.
	Prompt string `json:"prompt"`
	// PostToolUse.
	ToolName     string          `json:"tool_name"`
	ToolInput    json.RawMessage `json:"tool_input"`
	ToolResponse json.RawMessage `json:"tool_response"`
	ToolUseID    string          `json:"tool_use_id"`
	// PreCompact: manual or auto.
	Trigger            string `json:"trigger"`
	CustomInstructions string `json:"custom_instructions"`
	// Stop.
	StopHookActive bool `json:"stop_hook_active"`
	// SessionEnd: clear, logout, prompt_input_exit, other.
	Reason string `json:"reason"`
}

// Parse reads one payload. Unknown fields are ignored, since Claude Code
// adds fields over time. Returns EINVALID for input that is not a JSON
// object, lacks hook_event_name or session_id, or is too large.
func Parse(r io.Reader) (*Payload, error) {
	buf, err := io.ReadAll(io.LimitReader(r, MaxPayloadBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read payload: %w", err)
	}
	if len(buf) > MaxPayloadBytes {
		return nil, recall.Errorf(recall.EINVALID, "Hook payload is over %d bytes; skipped.", MaxPayloadBytes)
	}
	buf = bytes.TrimSpace(buf)
	if len(buf) == 0 || buf[0] != '{' {
		return nil, recall.Errorf(recall.EINVALID, "Hook payload is not a JSON object; skipped.")
	}
	var p Payload
	if err := json.Unmarshal(buf, &p); err != nil {
		return nil, recall.Errorf(recall.EINVALID, "Hook payload is malformed JSON (%v); skipped.", err)
	}
	if p.Event == "" {
		return nil, recall.Errorf(recall.EINVALID, "Hook payload has no hook_event_name; skipped.")
	}
	if p.SessionID == "" {
		return nil, recall.Errorf(recall.EINVALID, "Hook payload for %s has no session_id; skipped.", p.Event)
	}
	return &p, nil
}

// SessionStartOutput is what a SessionStart hook prints on stdout for
// Claude Code to add context to the session.
func SessionStartOutput(context string) ([]byte, error) {
	type specific struct {
		HookEventName     string `json:"hookEventName"`
		AdditionalContext string `json:"additionalContext"`
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(struct {
		HookSpecificOutput specific `json:"hookSpecificOutput"`
	}{specific{EventSessionStart, context}})
	return b.Bytes(), err
}
