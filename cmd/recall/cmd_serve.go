package main

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"runtime"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/httpapi"
	"github.com/recall-mem/recall/mcp"
	"github.com/recall-mem/recall/web"
	"github.com/spf13/cobra"
)

// logger writes server logs to stderr: stdout belongs to results, and to
// the protocol under `recall mcp`.
func (a *app) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(a.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

func (a *app) mcpServer(log *slog.Logger) *sdk.Server {
	return mcp.NewServer(a.eng, mcp.Options{Logger: log, Budget: a.eng.Config.Hook.ContextTokens})
}

func (a *app) mcpCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "mcp",
		Short: "Serve the store to an agent over MCP on stdio",
		Long: `Serve the store over the Model Context Protocol on stdin and stdout, for an
agent that starts recall as its MCP server. stdout carries the protocol only;
logs go to stderr. The server stops when the agent closes stdin.

Tools: memory_put, memory_get, memory_update, memory_delete, memory_search,
memory_list, memory_history, memory_diff, memory_restore, memory_import,
memory_export, memory_context, memory_pin, memory_snooze, memory_demote,
memory_archive, memory_supersede, memory_review, observation_record,
observation_search, observation_timeline, session_start, session_end,
session_list, maintain_plan, maintain_sync_plan, maintain_sync,
maintain_apply, rollup_run, store_tiers, store_purge_plan, store_purge,
store_sweep, store_stats, store_reindex_status, store_doctor and
store_backup: each is the command of the same name, through the same engine
call. Resource: recall://context (the current context pack).

To share one store among several agents, run 'recall serve' and point them at
its /mcp endpoint instead.`,
		Example: `  claude mcp add recall -- recall mcp
  recall --store ~/notes/.recall mcp`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if err := a.openForWrite(c.Context()); err != nil {
				return err
			}
			log := a.logger()
			t := mcp.NewStdioTransport(a.stdin, a.stdout)
			defer a.eng.StartBackground(c.Context())()
			err := a.mcpServer(log).Run(c.Context(), t)
			if err == nil || c.Context().Err() != nil || errors.Is(err, io.EOF) || errors.Is(err, sdk.ErrConnectionClosed) {
				return nil // the agent hung up or we were told to stop
			}
			return err
		},
	}
}

func (a *app) serveCommand() *cobra.Command {
	var addr, token string
	var slots int
	c := &cobra.Command{
		Use:   "serve",
		Short: "Serve the store over HTTP: a web UI at /, REST under /v1/ and MCP at /mcp",
		Long: `Run recall as a long-lived server so that several agents and programs on this
machine share one store: REST under /v1/ and MCP (streamable HTTP) at /mcp.

It listens on 127.0.0.1:7077 by default and answers only requests addressed to
localhost. Any other address needs --token (or RECALL_TOKEN), and then every
request must send "Authorization: Bearer TOKEN". Browser requests from other
sites are refused. SIGINT or SIGTERM stops it after the requests in flight
finish. Logs go to stderr.

The web UI at / follows the same rules; with a token, open it once as
http://HOST:PORT/?token=TOKEN (or sign in on its form) and the browser keeps
an HttpOnly cookie instead.

Searches (REST, MCP and the web UI alike) run --search-slots at a time, one a
core by default, the others queued in arrival order: under many clients each
then runs at nearly its own speed. The limit holds only where a search is this
machine's work: a SQLite store with an embedder that runs in recall (builtin,
hashing, model2vec, none). With a remote embedder (openai) or a PostgreSQL
store, searches mostly wait on the network and are not limited.`,
		Example: `  recall serve
  recall serve --addr 127.0.0.1:8080
  RECALL_TOKEN=$(openssl rand -hex 16) recall serve --addr 0.0.0.0:7077
  curl -s 'http://127.0.0.1:7077/v1/search?q=deploy'`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if token == "" {
				// Read here, not as the flag default, so --help never prints it.
				token = os.Getenv("RECALL_TOKEN")
			}
			loopback, err := httpapi.CheckBind(addr, token)
			if err != nil {
				return err
			}
			if slots < 0 {
				return recall.Errorf(recall.EINVALID, "Invalid --search-slots %d: give 0 (no limit) or more.", slots)
			}
			a.eng.SearchSlots = slots
			if err := a.openForWrite(c.Context()); err != nil {
				return err
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return recall.Errorf(recall.EUNAVAILABLE, "Cannot listen on %s: %v. Choose another --addr.", addr, errors.Unwrap(err))
			}
			log := a.logger()
			lowHeapGC()
			defer a.eng.StartBackground(c.Context())()
			ui, err := web.New(web.BackendOf(a.eng), web.Options{Token: token, Loopback: loopback, Logger: log})
			if err != nil {
				return err
			}
			srv := &httpapi.Server{Engine: a.eng, Token: token, Loopback: loopback, Logger: log,
				MCP: mcp.HTTPHandler(a.mcpServer(log), log), UI: ui}
			fprintf(a.stderr, "recall: serving %s on http://%s (web UI /, REST /v1/, MCP /mcp; %s); Ctrl-C stops\n",
				a.eng.Location.Dir, engine.ListenAddr(addr, ln.Addr()), searchLimitNote(a.eng.SearchLimit()))
			if err := srv.Serve(c.Context(), ln); err != nil {
				return err
			}
			fprintf(a.stderr, "recall: stopped\n")
			return nil
		},
	}
	c.Flags().StringVar(&addr, "addr", "127.0.0.1:7077", "listen on `HOST:PORT`")
	c.Flags().StringVar(&token, "token", "", "require this bearer `TOKEN` on every request (default $RECALL_TOKEN)")
	c.Flags().IntVar(&slots, "search-slots", serveSearchSlots(), "run at most `N` searches at once, the others queued (0: no limit; local stores only)")
	return c
}

// serveSearchSlots is how many searches 'recall serve' runs at once by
// default, the others queued in arrival order: one a core. A hybrid search already
// runs its full-text and vector sides, the vector scan and the query
// embedding on several goroutines, so a core a search keeps both cores
// busy while the queued searches wait instead of sharing them (the
// engine's searchGate; docs/performance.md, servegate).
func serveSearchSlots() int { return runtime.GOMAXPROCS(0) }

// searchLimitNote tells whoever starts the server whether its searches
// queue: --search-slots holds only for a local store and embedder.
func searchLimitNote(n int) string {
	if n == 0 {
		return "searches not queued"
	}
	return fmt.Sprintf("%d searches at a time", n)
}
