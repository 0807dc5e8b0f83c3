package main

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/recall-mem/recall"
)

// writeJSON prints v as indented JSON followed by a newline.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// table returns a tabwriter for human tables; call Flush when done.
func table(w io.Writer) *tabwriter.Writer {
	return tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
}

// oneLine shortens s to one line of at most n runes for tables.
func oneLine(s string, n int) string { return recall.OneLine(s, n) }

// stamp formats a time for people.
func stamp(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format(time.RFC3339)
}

func fprintf(w io.Writer, format string, args ...any) { fmt.Fprintf(w, format, args...) }
