package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/recall-mem/recall"
	"github.com/spf13/cobra"
)

func (a *app) importCommand() *cobra.Command {
	var jsonOut, observations bool
	c := &cobra.Command{
		Use:   "import FILE|-",
		Short: "Load memories from JSON Lines (as written by export), all or nothing",
		Long: `Load memories from JSON Lines, one memory object per line, as written by
'recall export'. Ids are preserved: a memory whose id exists is updated (a new
version), others are added. The import is one transaction: on any error
nothing is written.

With --observations the input is observations instead, one JSON object per
line with the fields at (RFC 3339), type, key, session, project, tool, file,
content and metadata (as 'recall timeline --json' prints them, which is also
accepted), again all or nothing.`,
		Example: `  recall import backup.jsonl
  recall import --observations events.jsonl`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			buf, err := a.readInput(args[0])
			if err != nil {
				return err
			}
			if observations {
				return a.importObservations(c, buf, jsonOut)
			}
			ms, err := decodeMemoryLines(buf)
			if err != nil {
				return err
			}
			if err := a.openForWrite(c.Context()); err != nil {
				return err
			}
			res, err := a.eng.Import(c.Context(), ms)
			if err != nil {
				return err
			}
			if jsonOut {
				return writeJSON(a.stdout, res)
			}
			fprintf(a.stdout, "Imported %d memories: %d added, %d updated\n", res.Added+res.Updated, res.Added, res.Updated)
			return nil
		},
	}
	c.Flags().BoolVar(&jsonOut, "json", false, "print {added, updated}")
	c.Flags().BoolVar(&observations, "observations", false, "the input is observations (JSON Lines), not memories")
	return c
}

// decodeMemoryLines parses JSON Lines of memories; blank lines are skipped.
func decodeMemoryLines(buf []byte) ([]*recall.Memory, error) {
	return decodeLines[recall.Memory](buf, "a memory object")
}

// decodeLines parses JSON Lines of objects of type T, refusing unknown
// fields; blank lines are skipped. what names an object in errors.
func decodeLines[T any](buf []byte, what string) ([]*T, error) {
	var out []*T
	sc := bufio.NewScanner(bytes.NewReader(buf))
	sc.Buffer(make([]byte, 0, 64*1024), 64<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		// The decoder would turn invalid UTF-8 into U+FFFD without a word:
		// refuse it rather than import text that differs from the file.
		if !utf8.Valid(line) {
			return nil, recall.Errorf(recall.EINVALID, "Line %d is not valid UTF-8: convert the file to UTF-8 (iconv) and import again. Nothing was imported.", n)
		}
		v := new(T)
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(v); err != nil {
			return nil, recall.Errorf(recall.EINVALID, "Line %d is not %s: %v. Nothing was imported.", n, what, err)
		}
		if extra := trailingData(dec, line); extra != "" {
			return nil, recall.Errorf(recall.EINVALID, "Line %d has %q after the JSON object: put one object on each line. Nothing was imported.", n, extra)
		}
		if name := repeatedField(line); name != "" {
			return nil, recall.Errorf(recall.EINVALID, "Line %d gives the field %q more than once (names match regardless of case): only one value would be kept, so give it once. Nothing was imported.", n, name)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		return nil, recall.Errorf(recall.EINVALID, "Cannot read the input: %v.", err)
	}
	return out, nil
}

// trailingData returns the start of what follows the value dec decoded
// from buf, or "" when only white space follows: a second object or stray
// text on a line would otherwise be dropped without a word.
func trailingData(dec *json.Decoder, buf []byte) string {
	rest := bytes.TrimSpace(buf[dec.InputOffset():])
	if len(rest) == 0 {
		return ""
	}
	return recall.OneLine(string(rest), 20)
}

// repeatedField returns the first top-level field name of the JSON object
// in buf that repeats an earlier one, as the decoder matches names (case
// folded), or "". The decoder keeps the last value without a word.
func repeatedField(buf []byte) string {
	dec := json.NewDecoder(bytes.NewReader(buf))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return ""
	}
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return ""
		}
		name, _ := t.(string)
		fold := strings.ToUpper(strings.ToLower(name))
		if seen[fold] {
			return name
		}
		seen[fold] = true
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return ""
		}
	}
	return ""
}

func (a *app) exportCommand() *cobra.Command {
	var ff filterFlags
	c := &cobra.Command{
		Use:   "export",
		Short: "Write memories as JSON Lines, one per line (to move them; 'recall backup' copies the whole store)",
		Example: `  recall export > backup.jsonl
  recall --store /new/place import backup.jsonl`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			f, err := ff.build(c)
			if err != nil {
				return err
			}
			if !c.Flags().Changed("status") {
				any := "any"
				f.Status = &any
			}
			if err := a.open(c.Context()); err != nil {
				return err
			}
			ms, _, err := a.eng.List(c.Context(), f)
			if err != nil {
				return err
			}
			w := bufio.NewWriter(a.stdout)
			enc := json.NewEncoder(w)
			enc.SetEscapeHTML(false)
			for i := len(ms) - 1; i >= 0; i-- { // oldest first, so a re-import keeps their order
				if err := enc.Encode(ms[i]); err != nil {
					return err
				}
			}
			return w.Flush()
		},
	}
	ff.register(c)
	return c
}
