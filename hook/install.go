package hook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"time"

	"github.com/recall-mem/recall"
)

// Installer adds recall's hooks to a Claude Code settings file and its MCP
// server to an MCP configuration file, and takes them out again. It merges
// with what is there, never changes an entry that is not recall's (see
// IsRecallHook), writes a file only when its content changes, and backs up
// every file before changing it.
type Installer struct {
	SettingsPath string // .claude/settings.json or ~/.claude/settings.json
	MCPPath      string // .mcp.json or ~/.claude.json
	Command      string // the hook command, e.g. "recall hook claude"
	MCPCommand   string // e.g. "recall"
	MCPArgs      []string
	Timeout      int // seconds Claude Code waits for the hook
	// BackupDir receives the backups; empty means beside each file.
	BackupDir string
	Now       time.Time
}

// Change says what happened to one file.
type Change struct {
	Path    string `json:"path"`
	Changed bool   `json:"changed"`
	Backup  string `json:"backup,omitempty"`
	Note    string `json:"note"`
}

// hookGroup is a matcher and its hooks in settings.json.
type hookGroup struct {
	Matcher *string      `json:"matcher,omitempty"`
	Hooks   []hookAction `json:"hooks"`
}

type hookAction struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int    `json:"timeout,omitempty"`
}

type mcpServer struct {
	Type    string   `json:"type,omitempty"`
	Command string   `json:"command"`
	Args    []string `json:"args,omitempty"`
}

// Install adds what is missing. Returns EINVALID when a file is not a JSON
// object of the expected shape; nothing is written then.
func (in *Installer) Install() ([]Change, error) {
	return in.apply(true)
}

// Uninstall removes the entries Install adds, whatever command they were
// installed with.
func (in *Installer) Uninstall() ([]Change, error) {
	return in.apply(false)
}

func (in *Installer) apply(install bool) ([]Change, error) {
	settings, err := in.edit(in.SettingsPath, func(o *object) (string, error) { return in.editHooks(o, install) })
	if err != nil {
		return nil, err
	}
	mcp, err := in.edit(in.MCPPath, func(o *object) (string, error) { return in.editMCP(o, install) })
	if err != nil {
		return []Change{settings}, err
	}
	return []Change{settings, mcp}, nil
}

// edit loads path, applies fn and writes the result back, with a backup,
// when it differs. A file left empty by an uninstall is removed.
func (in *Installer) edit(path string, fn func(*object) (string, error)) (Change, error) {
	ch := Change{Path: path}
	old, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return ch, fmt.Errorf("read %s: %w", path, err)
	}
	o, err := parseObject(old)
	if err != nil {
		return ch, recall.Errorf(recall.EINVALID, "%s is not a valid JSON object (%v): fix it by hand, then retry. Nothing was changed.", path, err)
	}
	if ch.Note, err = fn(o); err != nil {
		return ch, err
	}
	out, err := indent(o)
	if err != nil {
		return ch, err
	}
	if old == nil && o.len() == 0 || old != nil && sameJSON(old, out) {
		return ch, nil // nothing to change: leave the file and its formatting alone
	}
	if old != nil {
		dir := in.BackupDir
		if dir == "" {
			dir = filepath.Dir(path)
		}
		if ch.Backup, err = backup(dir, path, old, in.Now); err != nil {
			return ch, fmt.Errorf("back up %s: %w", path, err)
		}
	}
	ch.Changed = true
	if o.len() == 0 {
		return ch, os.Remove(path)
	}
	return ch, recall.WriteFileAtomic(path, out, 0o600)
}

// editHooks adds recall's command under every event, replacing a recall
// hook installed with another command, or removes every recall hook.
func (in *Installer) editHooks(settings *object, install bool) (string, error) {
	hooks := newObject()
	if v, ok := settings.get("hooks"); ok {
		var err error
		if hooks, err = parseObject(v); err != nil {
			return "", recall.Errorf(recall.EINVALID, "%s: \"hooks\" is not an object; fix it by hand, then retry.", in.SettingsPath)
		}
	}
	added, removed := 0, 0
	for _, event := range Events {
		var groups []json.RawMessage
		if v, ok := hooks.get(event); ok {
			if err := json.Unmarshal(v, &groups); err != nil {
				return "", recall.Errorf(recall.EINVALID, "%s: hooks.%s is not a list; fix it by hand, then retry.", in.SettingsPath, event)
			}
		}
		present := false
		var kept []json.RawMessage
		for _, g := range groups {
			var hg hookGroup
			_ = json.Unmarshal(g, &hg)
			var left []hookAction
			for _, h := range hg.Hooks {
				switch {
				case !IsRecallHook(h.Command):
					left = append(left, h)
				case install && !present && h.Command == in.Command:
					present = true
					left = append(left, h)
				default: // uninstalling, or a stale or second recall hook
					removed++
				}
			}
			switch {
			case len(left) == len(hg.Hooks):
				kept = append(kept, g)
			case len(left) > 0: // keep the user's hooks that shared the group
				g2, err := parseObject(g)
				if err != nil {
					return "", err
				}
				g2.set("hooks", raw(left))
				kept = append(kept, raw(g2))
			}
		}
		if install && !present {
			g := hookGroup{Hooks: []hookAction{{Type: "command", Command: in.Command, Timeout: in.Timeout}}}
			if event == EventPostToolUse {
				all := "*"
				g.Matcher = &all
			}
			kept = append(kept, raw(g))
			added++
		}
		switch {
		case len(kept) > 0:
			hooks.set(event, raw(kept))
		case len(groups) > 0: // emptied by the removal
			hooks.delete(event)
		}
	}
	switch {
	case hooks.len() > 0:
		settings.set("hooks", raw(hooks))
	case !install:
		settings.delete("hooks")
	}
	if !install {
		return fmt.Sprintf("hooks: %d removed", removed), nil
	}
	note := fmt.Sprintf("hooks: %d added, %d already there", added, len(Events)-added)
	if removed > 0 {
		note += fmt.Sprintf(", %d with another command removed", removed)
	}
	return note, nil
}

// editMCP adds, updates or removes the "recall" MCP server. An existing
// "recall" entry that does not run recall's server is left alone.
func (in *Installer) editMCP(cfg *object, install bool) (string, error) {
	servers := newObject()
	if v, ok := cfg.get("mcpServers"); ok {
		var err error
		if servers, err = parseObject(v); err != nil {
			return "", recall.Errorf(recall.EINVALID, "%s: \"mcpServers\" is not an object; fix it by hand, then retry.", in.MCPPath)
		}
	}
	want := mcpServer{Type: "stdio", Command: in.MCPCommand, Args: in.MCPArgs}
	cur, exists := servers.get("recall")
	var have mcpServer
	_ = json.Unmarshal(cur, &have)
	ours := exists && isRecallMCP(have)
	same := ours && have.Command == want.Command && reflect.DeepEqual(have.Args, want.Args)
	switch {
	case install && same:
		return "MCP server recall already registered", nil
	case install && exists && !ours:
		return "kept the existing MCP server named recall (it runs something else)", nil
	case install:
		servers.set("recall", raw(want))
		cfg.set("mcpServers", raw(servers))
		if ours {
			return "MCP server recall now runs " + strings.Join(append([]string{want.Command}, want.Args...), " "), nil
		}
		return "MCP server recall registered", nil
	case !ours:
		return "no recall MCP server of ours to remove", nil
	}
	servers.delete("recall")
	if servers.len() == 0 {
		cfg.delete("mcpServers")
	} else {
		cfg.set("mcpServers", raw(servers))
	}
	return "MCP server recall removed", nil
}

// Installed reports which events in the settings file at path run a recall
// hook (IsRecallHook), whatever its command.
func Installed(path string) ([]string, error) {
	buf, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s struct {
		Hooks map[string][]hookGroup `json:"hooks"`
	}
	if err := json.Unmarshal(buf, &s); err != nil {
		return nil, err
	}
	var out []string
event:
	for _, event := range Events {
		for _, g := range s.Hooks[event] {
			for _, h := range g.Hooks {
				if IsRecallHook(h.Command) {
					out = append(out, event)
					continue event
				}
			}
		}
	}
	return out, nil
}

// sameJSON reports whether a and b hold the same JSON text, ignoring
// whitespace.
func sameJSON(a, b []byte) bool {
	var ca, cb bytes.Buffer
	return json.Compact(&ca, a) == nil && json.Compact(&cb, b) == nil && bytes.Equal(ca.Bytes(), cb.Bytes())
}
