package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/internal/buildinfo"
	"github.com/spf13/cobra"
)

// Exit codes.
const (
	exitOK    = 0
	exitData  = 1 // not found, conflict, a failed check
	exitUsage = 2 // unknown command or flag, invalid name, malformed JSON
	// exitInterrupted is the shell's code for a command ended by SIGINT
	// (128+2); SIGTERM gets it too, since both mean "stop" here.
	exitInterrupted = 130
)

// app holds what every command shares: standard streams, the global flags
// and, once opened, the store and its services.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer

	// eng is recall itself: the store, once opened, and every use case.
	eng *engine.Engine
}

func newApp(stdin io.Reader, stdout, stderr io.Writer) *app {
	e := engine.New(backend())
	e.Log = stderr
	return &app{stdin: stdin, stdout: stdout, stderr: stderr, eng: e}
}

// usageError marks errors that are the caller's syntax, exit code 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// execute runs one command line and maps its error to an exit code and a
// message on stderr.
func (a *app) execute(ctx context.Context, args []string) int {
	root := a.rootCommandFor(args)
	if completing(args) {
		a.registerCompletions(root)
	}
	root.SetArgs(args)
	root.SetIn(a.stdin)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	err := root.ExecuteContext(ctx)
	a.eng.CheckEmbedding(ctx)
	a.close()
	if err == nil {
		return exitOK
	}
	var ue *usageError
	switch {
	case ctx.Err() != nil:
		// The signal, not the store, ended the command: whatever error
		// the cancelled statement produced (an import wraps it as an
		// internal error of one memory) says nothing true to the user.
		fmt.Fprintln(a.stderr, "recall: interrupted before the command finished: a write in progress was rolled back (an import keeps nothing); run the command again to finish it.")
		return exitInterrupted
	case isFlagRuleError(err):
		fmt.Fprintf(a.stderr, "recall: %v (see '%s --help')\n", err, commandPath(root, args))
		return exitUsage
	case errors.As(err, &ue):
		fmt.Fprintf(a.stderr, "recall: %s\n", ue.msg)
		return exitUsage
	case recall.ErrorCode(err) == recall.EINVALID:
		fmt.Fprintf(a.stderr, "recall: %s\n", recall.ErrorMessage(err))
		return exitUsage
	case recall.ErrorCode(err) == recall.EINTERNAL:
		fmt.Fprintf(a.stderr, "recall: %v\n", err)
		return exitData
	default:
		fmt.Fprintf(a.stderr, "recall: %s\n", recall.ErrorMessage(err))
		return exitData
	}
}

// isFlagRuleError reports whether err is cobra's refusal of a flag rule
// (a required flag missing, flags that go together or exclude each other):
// cobra returns these as plain errors after the flag error func has run,
// and they are usage errors like any other bad flag.
func isFlagRuleError(err error) bool {
	msg := err.Error()
	for _, p := range []string{"required flag(s) ", "if any flags in the group ", "at least one of the flags in the group "} {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}

// commandPath names the command args run, for the pointer to its help.
func commandPath(root *cobra.Command, args []string) string {
	if c, _, err := root.Find(args); err == nil {
		return c.CommandPath()
	}
	return root.CommandPath()
}

func (a *app) rootCommand() *cobra.Command { return a.rootWith(a.commands()) }

// rootCommandFor is the command tree that args need: the whole tree,
// except for the command lines an agent's hooks run (hookLine), which
// get the hook command alone. Building every command and its flags cost
// each hook process about 0.3 ms of CPU for commands it never runs.
func (a *app) rootCommandFor(args []string) *cobra.Command {
	if hookLine(args) {
		return a.rootWith([]*cobra.Command{a.hookCommand()})
	}
	return a.rootCommand()
}

// hookLine reports whether args are 'hook claude' or 'hook upkeep',
// after --store DIR, --store=DIR and --global only: a help request, a
// completion, any other flag or word builds the whole tree as before.
func hookLine(args []string) bool {
	for len(args) > 0 {
		switch a := args[0]; {
		case a == "--global" || strings.HasPrefix(a, "--store="):
			args = args[1:]
		case a == "--store" && len(args) > 1:
			args = args[2:]
		default:
			return len(args) == 2 && args[0] == "hook" && (args[1] == "claude" || args[1] == "upkeep")
		}
	}
	return false
}

// rootWith is the root command over commands.
func (a *app) rootWith(commands []*cobra.Command) *cobra.Command {
	root := &cobra.Command{
		Use:   "recall",
		Short: "Local-first long-term memory for AI agents",
		Long: `recall keeps an agent's memory in one embedded store: curated memories with
versions, observations captured from agent hooks, a small working set under a
budget, and hybrid search that packs context into a token budget.

The store is found the way git finds a repository: --store DIR, $RECALL_STORE,
the nearest .recall/ directory above the working directory, else the global
store ($XDG_DATA_HOME/recall). Run 'recall where' to see which one is used.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.Version = buildinfo.Read().Short()
	root.SetVersionTemplate(buildinfo.Read().String() + "\n")
	root.PersistentFlags().StringVar(&a.eng.StoreFlag, "store", "", "use the store in `DIR`")
	root.PersistentFlags().BoolVar(&a.eng.GlobalFlag, "global", false, "use the global store")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usagef("%v (see '%s --help')", err, c.CommandPath())
	})
	root.AddCommand(commands...)
	groupCommands(root)
	// Unknown commands and bad arguments are usage errors.
	for _, c := range root.Commands() {
		wrapArgs(c)
	}
	root.Args = func(c *cobra.Command, args []string) error {
		if len(args) > 0 {
			return usagef("unknown command %q: run 'recall --help' to list commands", args[0])
		}
		return nil
	}
	root.RunE = func(c *cobra.Command, _ []string) error { return c.Help() }
	return root
}

// wrapArgs makes argument-count errors usage errors.
func wrapArgs(c *cobra.Command) {
	if c.Args != nil {
		check := c.Args
		c.Args = func(cmd *cobra.Command, args []string) error {
			if err := check(cmd, args); err != nil {
				return usagef("%v (see '%s --help')", err, cmd.CommandPath())
			}
			return nil
		}
	}
	for _, sub := range c.Commands() {
		wrapArgs(sub)
	}
}

// open opens the store the flags select: every command that needs the
// store calls it.
func (a *app) open(ctx context.Context) error { return a.eng.Open(ctx) }

// openForWrite opens the store like open, creating it when it does not
// exist yet: for init and the commands that add data.
func (a *app) openForWrite(ctx context.Context) error { return a.eng.OpenForWrite(ctx) }

func (a *app) close() { a.eng.Close() }

// now is the wall clock; commands that accept --now override it per call.
func (a *app) now() time.Time { return time.Now().UTC() }

// readInput reads a file argument, or stdin for "-" or no argument.
func (a *app) readInput(arg string) ([]byte, error) {
	if arg == "" || arg == "-" {
		return io.ReadAll(a.stdin)
	}
	b, err := os.ReadFile(arg)
	if err != nil {
		return nil, recall.Errorf(recall.ENOTFOUND, "Cannot read %s: %v.", arg, errors.Unwrap(err))
	}
	return b, nil
}

// openInput opens a file argument to read as a stream, or stdin for "-"
// or no argument, with readInput's errors.
func (a *app) openInput(arg string) (io.ReadCloser, error) {
	if arg == "" || arg == "-" {
		return io.NopCloser(a.stdin), nil
	}
	f, err := os.Open(arg)
	if err != nil {
		return nil, recall.Errorf(recall.ENOTFOUND, "Cannot read %s: %v.", arg, errors.Unwrap(err))
	}
	// A directory opens without error and fails at the first read, in
	// the middle of the import: refuse it here, as readInput does.
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		f.Close()
		return nil, recall.Errorf(recall.ENOTFOUND, "Cannot read %s: is a directory.", arg)
	}
	return f, nil
}

// commandGroups sorts the commands of `recall --help` by what they are for.
var commandGroups = []struct {
	id, title string
	names     []string
}{
	{"memory", "Memories:", []string{"put", "get", "update", "delete", "list", "search", "context", "versions", "diff", "restore", "import", "export"}},
	{"capture", "Capture and sessions:", []string{"observe", "timeline", "observation", "hook", "install", "session", "procedure"}},
	{"tiers", "Working memory and tiers:", []string{"sync", "init-ids", "maintain", "pin", "unpin", "snooze", "demote", "archive", "supersede", "review", "rollup", "tiers"}},
	{"forget", "Forgetting:", []string{"purge", "sweep", "stats"}},
	{"store", "Store, servers and tools:", []string{"init", "where", "doctor", "backup", "restore-backup", "reindex", "mcp", "serve", "bench", "demo", "version"}},
}

func groupCommands(root *cobra.Command) {
	group := map[string]string{}
	for _, g := range commandGroups {
		root.AddGroup(&cobra.Group{ID: g.id, Title: g.title})
		for _, n := range g.names {
			group[n] = g.id
		}
	}
	for _, c := range root.Commands() {
		c.GroupID = group[c.Name()]
	}
}
