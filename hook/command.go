package hook

import (
	"path/filepath"
	"strings"

	"github.com/recall-mem/recall"
)

// A hook command recall installs is a recall binary, its global flags, then
// "hook claude": "recall hook claude", "/opt/bin/recall --global hook
// claude". Recognising that shape, rather than one exact string, is what
// lets --uninstall remove hooks installed with any --command, and lets a
// reinstall with a new --command replace the old one instead of adding a
// second hook that records every event twice.

// IsRecallHook reports whether command is a recall hook command.
func IsRecallHook(command string) bool {
	w := strings.Fields(command)
	n := len(w)
	return n >= 3 && w[n-2] == "hook" && w[n-1] == "claude" && namesRecall(w[:n-2])
}

// MCPCommandFor derives the MCP server's command line from a hook command:
// the same binary and global flags, running "mcp" instead of "hook claude".
func MCPCommandFor(hookCommand string) (command string, args []string, err error) {
	if !IsRecallHook(hookCommand) {
		return "", nil, recall.Errorf(recall.EINVALID, "The hook command %q must be a recall binary followed by `hook claude`, e.g. \"/usr/local/bin/recall hook claude\".", hookCommand)
	}
	w := strings.Fields(hookCommand)
	w = w[:len(w)-2]
	return w[0], append(w[1:len(w):len(w)], "mcp"), nil
}

// isRecallMCP reports whether an MCP server entry runs recall's server.
func isRecallMCP(s mcpServer) bool {
	n := len(s.Args)
	return n > 0 && s.Args[n-1] == "mcp" && namesRecall(append([]string{s.Command}, s.Args[:n-1]...))
}

// namesRecall reports whether one of words is a path to recall (recall,
// recall.exe, ./cmd/recall, /opt/recall-1.2/bin/recall).
func namesRecall(words []string) bool {
	for _, w := range words {
		if strings.HasPrefix(strings.ToLower(filepath.Base(w)), "recall") {
			return true
		}
	}
	return false
}

// WithGlobalStore returns a recall hook command that uses the global store:
// "--global" before "hook claude", unless the command already names a store.
// Any other command is returned as it is (MCPCommandFor refuses it).
func WithGlobalStore(command string) string {
	w := strings.Fields(command)
	if !IsRecallHook(command) {
		return command
	}
	for _, x := range w {
		if x == "--global" || x == "--store" || strings.HasPrefix(x, "--store=") {
			return command
		}
	}
	n := len(w)
	return strings.Join(append(w[:n-2:n-2], "--global", "hook", "claude"), " ")
}
