// Command recall is a local-first long-term memory engine for AI agents.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	os.Exit(run())
}

// run executes the command line and returns the process exit code; the
// testscript harness calls it in-process.
func run() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	a := newApp(os.Stdin, os.Stdout, os.Stderr)
	return a.execute(ctx, os.Args[1:])
}
