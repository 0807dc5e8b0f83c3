package httpapi

import (
	"strings"

	"github.com/recall-mem/recall/internal/lazyre"
)

// The store's messages name the CLI command to run next ("run `recall
// list` to see ids"); an API client has no CLI at hand, so the commands
// that have a route are reworded as that route. Commands only the server's
// operator can run (`recall init`, `recall reindex`, `recall doctor`) stay
// as they are.
var (
	cliCommand = lazyre.New("`recall ([a-z-]+(?: [a-z]+)?)((?: [^`]*)?)`")
	runRoute   = lazyre.New("\\b(run|Run) `(GET|POST|PATCH|DELETE) ")
)

// apiMessage rewords the CLI commands in msg as REST routes.
func apiMessage(msg string) string {
	if !strings.Contains(msg, "`recall ") {
		return msg
	}
	msg = cliCommand().ReplaceAllStringFunc(msg, func(m string) string {
		sub := cliCommand().FindStringSubmatch(m)
		if route := routeFor(sub[1], strings.Fields(sub[2])); route != "" {
			return "`" + route + "`"
		}
		return m
	})
	return runRoute().ReplaceAllStringFunc(msg, func(m string) string {
		if strings.HasPrefix(m, "Run") {
			return "Call" + m[3:]
		}
		return "call" + m[3:]
	})
}

// routeFor returns the route that does what `recall cmd args` does, or ""
// when there is none. The command's first word may have taken the second
// as a subcommand ("session start") or an argument ("search deploy").
func routeFor(cmd string, args []string) string {
	name, rest, _ := strings.Cut(cmd, " ")
	if rest != "" && name != "session" {
		args = append([]string{rest}, args...)
	}
	arg := func(def string) string {
		if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
			return args[0]
		}
		return def
	}
	switch cmd {
	case "session start":
		return "POST /v1/sessions"
	case "session end":
		return "POST /v1/sessions/{id}/end"
	}
	switch name {
	case "list":
		if len(args) == 2 && args[0] == "--collection" {
			return "GET /v1/memories?collection=" + args[1]
		}
		return "GET /v1/memories"
	case "search":
		if q := arg(""); q != "" {
			return "GET /v1/search?q=" + q
		}
		return "GET /v1/search"
	case "get":
		return "GET /v1/memories/" + arg("{id}")
	case "put":
		return "POST /v1/memories"
	case "update":
		return "PATCH /v1/memories/" + arg("{id}")
	case "delete":
		return "DELETE /v1/memories/" + arg("{id}")
	case "versions":
		return "GET /v1/memories/" + arg("{id}") + "/versions"
	case "context":
		return "POST /v1/context"
	case "timeline":
		return "GET /v1/observations"
	case "observe":
		return "POST /v1/observations"
	}
	return ""
}
