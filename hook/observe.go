package hook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/recall-mem/recall"
)

// Options shape the observations made from a payload.
type Options struct {
	// MaxOutputBytes trims tool output and file contents; 0 means 4096.
	MaxOutputBytes int
	// Project names the project; empty means the base name of cwd.
	Project string
	// Now stamps the observations.
	Now time.Time
	// Redactor, when set, cleans every text before it is trimmed: a trim
	// can cut a secret so that the store's redactor no longer recognises
	// what is left of it (a key body without its BEGIN line, a token
	// split by the trim marker).
	Redactor recall.Redactor
}

func (opt Options) withDefaults(p *Payload) Options {
	if opt.MaxOutputBytes <= 0 {
		opt.MaxOutputBytes = 4096
	}
	if opt.Project == "" && p.CWD != "" {
		opt.Project = filepath.Base(p.CWD)
	}
	return opt
}

// maxPromptBytes keeps long prompts: they are the "why" of a session and
// worth more than tool output.
const maxPromptBytes = 16 << 10

// Observations returns what a payload records: one observation for every
// event but Stop, whose payload carries nothing worth keeping on its own
// (TurnObservations records the turn it ends from the transcript).
func Observations(p *Payload, opt Options) []*recall.Observation {
	opt = opt.withDefaults(p)
	o := &recall.Observation{At: opt.Now, Session: p.SessionID, Project: opt.Project}
	meta := map[string]any{}
	c := &clipper{redactor: opt.Redactor}
	switch p.Event {
	case EventSessionStart:
		o.Type = recall.ObsSessionStart
		o.Content = "Session started (" + or(p.Source, "startup") + ")"
		meta["source"], meta["model"] = p.Source, p.Model
	case EventUserPromptSubmit:
		o.Type = recall.ObsUserPrompt
		o.Content = c.clip(p.Prompt, max(opt.MaxOutputBytes, maxPromptBytes))
	case EventPostToolUse:
		toolObservation(o, p, c, opt.MaxOutputBytes, meta)
	case EventPreCompact:
		o.Type = "context_compact"
		o.Content = "Context compacted (" + or(p.Trigger, "auto") + ")"
		if p.CustomInstructions != "" {
			o.Content += ": " + c.clip(p.CustomInstructions, opt.MaxOutputBytes)
		}
	case EventSessionEnd:
		o.Type = recall.ObsSessionEnd
		o.Content = "Session ended (" + or(p.Reason, "other") + ")"
	case EventStop:
		return nil
	default:
		o.Type = "hook_event"
		o.Content = p.Event
		meta["event"] = p.Event
	}
	if p.TranscriptPath != "" && (p.Event == EventSessionStart || p.Event == EventSessionEnd) {
		meta["transcript_path"] = p.TranscriptPath
	}
	c.record(meta)
	o.Metadata = metadata(meta)
	return []*recall.Observation{o}
}

// toolObservation maps a tool call to a typed observation: what the agent
// did, on which file, and a trimmed view of the result.
func toolObservation(o *recall.Observation, p *Payload, c *clipper, limit int, meta map[string]any) {
	in := fields(p.ToolInput)
	resp := fields(p.ToolResponse)
	o.Tool = p.ToolName
	if p.ToolUseID != "" {
		meta["tool_use_id"] = p.ToolUseID
	}
	switch name := p.ToolName; {
	case name == "Bash":
		o.Type = recall.ObsCommand
		if failed(resp, p.ToolResponse) {
			o.Type = recall.ObsCommandError
		}
		out := strings.TrimSpace(str(resp, "stdout") + "\n" + str(resp, "stderr"))
		if out == "" && len(resp) == 0 {
			out = rawText(p.ToolResponse)
		}
		o.Content = "$ " + str(in, "command")
		if out != "" {
			o.Content += "\n" + c.clip(out, limit)
		}
		if d := str(in, "description"); d != "" {
			meta["description"] = d
		}
	case name == "Read":
		o.Type, o.File = recall.ObsFileRead, str(in, "file_path")
		o.Content = "Read " + o.File
	case name == "Write":
		o.Type, o.File = recall.ObsFileWrite, str(in, "file_path")
		o.Content = "Wrote " + o.File + "\n" + c.clip(str(in, "content"), limit)
	case name == "Edit" || name == "MultiEdit" || name == "NotebookEdit":
		o.Type, o.File = recall.ObsFileEdit, or(str(in, "file_path"), str(in, "notebook_path"))
		o.Content = "Edited " + o.File + "\n" + c.clip(editText(in), limit)
	case name == "Grep" || name == "Glob":
		o.Type, o.File = recall.ObsSearch, str(in, "path")
		o.Content = strings.ToLower(name) + " " + str(in, "pattern")
		if o.File != "" {
			o.Content += " in " + o.File
		}
	case name == "WebSearch":
		o.Type = recall.ObsSearch
		o.Content = "web search: " + str(in, "query")
	case name == "WebFetch":
		o.Type = "web_fetch"
		o.Content = "fetch " + str(in, "url") + ": " + str(in, "prompt")
	case name == "Task":
		o.Type = "agent_task"
		o.Content = or(str(in, "description"), "task") + "\n" + c.clip(str(in, "prompt"), limit)
	case name == "TodoWrite":
		o.Type = "todo"
		o.Content = c.clip(rawText(p.ToolInput), limit)
	case strings.HasPrefix(name, "mcp__"):
		o.Type = recall.ObsMCPCall
		o.Content = name + " " + c.clip(rawText(p.ToolInput), limit/2) + "\n" + c.clip(rawText(p.ToolResponse), limit/2)
	default:
		o.Type = "tool_use"
		o.Content = name + " " + c.clip(rawText(p.ToolInput), limit)
	}
	o.Content = strings.TrimRight(o.Content, "\n ")
}

// failed reports whether a Bash response says the command failed: an
// error flag, a non-zero exit code or an interruption.
func failed(resp map[string]json.RawMessage, raw json.RawMessage) bool {
	if len(resp) == 0 {
		return false
	}
	for _, k := range []string{"is_error", "isError", "interrupted"} {
		if string(resp[k]) == "true" {
			return true
		}
	}
	for _, k := range []string{"exit_code", "exitCode", "returnCode", "return_code"} {
		if v, ok := resp[k]; ok && string(v) != "0" && string(v) != "null" {
			return true
		}
	}
	return str(resp, "error") != ""
}

// editText shows an edit as removed and added lines.
func editText(in map[string]json.RawMessage) string {
	var b strings.Builder
	write := func(old, new string) {
		for _, l := range strings.Split(old, "\n") {
			if old != "" {
				b.WriteString("- " + l + "\n")
			}
		}
		for _, l := range strings.Split(new, "\n") {
			if new != "" {
				b.WriteString("+ " + l + "\n")
			}
		}
	}
	if raw, ok := in["edits"]; ok {
		var edits []struct {
			Old string `json:"old_string"`
			New string `json:"new_string"`
		}
		_ = json.Unmarshal(raw, &edits)
		for _, e := range edits {
			write(e.Old, e.New)
		}
		return b.String()
	}
	write(str(in, "old_string"), or(str(in, "new_string"), str(in, "new_source")))
	return b.String()
}

// Trim shortens s to at most limit bytes, keeping its head and tail (the
// command and the error usually sit at the ends) on UTF-8 boundaries.
func Trim(s string, limit int) string {
	if limit <= 0 || len(s) <= limit {
		return s
	}
	marker := fmt.Sprintf("\n[… %d bytes trimmed …]\n", len(s)-limit)
	keep := max(limit-len(marker), 0)
	head, start := keep*2/3, len(s)-(keep-keep*2/3)
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	for start < len(s) && !utf8.RuneStart(s[start]) {
		start++
	}
	return s[:head] + marker + s[start:]
}

// fields decodes a JSON object; anything else yields nil.
func fields(raw json.RawMessage) map[string]json.RawMessage {
	var m map[string]json.RawMessage
	if len(raw) > 0 && raw[0] == '{' {
		_ = json.Unmarshal(raw, &m)
	}
	return m
}

// str returns a string field, or "" when absent or not a string.
func str(m map[string]json.RawMessage, key string) string {
	var s string
	if v, ok := m[key]; ok {
		_ = json.Unmarshal(v, &s)
	}
	return s
}

// rawText shows a JSON value compactly: a string as itself, anything else
// as JSON.
func rawText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) == nil {
		return b.String()
	}
	return string(raw)
}

func metadata(m map[string]any) json.RawMessage {
	for k, v := range m {
		if v == "" {
			delete(m, k)
		}
	}
	if len(m) == 0 {
		return nil
	}
	b, _ := json.Marshal(m)
	return b
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
