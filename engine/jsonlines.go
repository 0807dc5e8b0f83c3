package engine

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"iter"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/recall-mem/recall"
)

// DecodeMemoryLines parses JSON Lines of memories; blank lines are skipped.
func DecodeMemoryLines(buf []byte) ([]*recall.Memory, error) {
	return decodeLines[recall.Memory](buf, "a memory object")
}

// MemoryLines yields the memories of the JSON Lines read from r, one line
// at a time, with the errors DecodeMemoryLines returns; blank lines are
// skipped. It stops after the first error.
func MemoryLines(r io.Reader) iter.Seq2[*recall.Memory, error] {
	return eachLine[recall.Memory](r, "a memory object")
}

// maxLine is the longest line accepted, far above any real memory.
const maxLine = 64 << 20

// decodeLines parses JSON Lines of objects of type T, refusing unknown
// fields; blank lines are skipped. what names an object in errors.
func decodeLines[T any](buf []byte, what string) ([]*T, error) {
	var out []*T
	for v, err := range eachLine[T](bytes.NewReader(buf), what) {
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// eachLine yields the objects of type T of the JSON Lines read from r,
// refusing unknown fields, until the input ends or a line fails; blank
// lines are skipped. what names an object in errors.
func eachLine[T any](r io.Reader, what string) iter.Seq2[*T, error] {
	return func(yield func(*T, error) bool) {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 0, 64*1024), maxLine)
		for n := 1; sc.Scan(); n++ {
			line := bytes.TrimSpace(sc.Bytes())
			if len(line) == 0 {
				continue
			}
			v, err := decodeLine[T](line, n, what)
			if !yield(v, err) || err != nil {
				return
			}
		}
		if err := sc.Err(); err != nil {
			yield(nil, recall.Errorf(recall.EINVALID, "Cannot read the input: %v.", err))
		}
	}
}

// decodeLine parses line n, one object of type T, as eachLine does.
func decodeLine[T any](line []byte, n int, what string) (*T, error) {
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
	return v, nil
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

// ObservationJSON is an observation as timeline --json prints it and import
// --observations reads it: the field names of the observe flags.
type ObservationJSON struct {
	// ID is the stored observation's id (for observation pin); ignored on
	// import, where the store gives new ids.
	ID       int64           `json:"id,omitempty"`
	At       time.Time       `json:"at"`
	Type     string          `json:"type"`
	Key      string          `json:"key,omitempty"`
	Session  string          `json:"session,omitempty"`
	Project  string          `json:"project,omitempty"`
	Tool     string          `json:"tool,omitempty"`
	File     string          `json:"file,omitempty"`
	Content  string          `json:"content"`
	Metadata json.RawMessage `json:"metadata,omitempty"`
}

// ToObservationJSON gives an observation its JSON form.
func ToObservationJSON(o *recall.Observation) ObservationJSON {
	return ObservationJSON{ID: o.ID, At: o.At, Type: o.Type, Key: o.Key, Session: o.Session, Project: o.Project, Tool: o.Tool, File: o.File, Content: o.Content, Metadata: o.Metadata}
}

// DescribeObservation names what an observation records, for the line
// that confirms it: its type, and its key and session when it has them.
func DescribeObservation(o *recall.Observation) string {
	parts := []string{o.Type}
	if o.Key != "" {
		parts = append(parts, "key "+o.Key)
	}
	if o.Session != "" {
		parts = append(parts, "session "+o.Session)
	}
	return strings.Join(parts, ", ")
}

// Observation is the observation j describes.
func (j ObservationJSON) Observation() *recall.Observation {
	return &recall.Observation{At: j.At.UTC(), Type: j.Type, Key: j.Key, Session: j.Session, Project: j.Project, Tool: j.Tool, File: j.File, Content: j.Content, Metadata: j.Metadata}
}

// DecodeObservationLines parses JSON Lines of observations, or one JSON
// array of them (as timeline --json prints). Blank lines are skipped.
func DecodeObservationLines(buf []byte) ([]*recall.Observation, error) {
	var items []*ObservationJSON
	if t := bytes.TrimSpace(buf); len(t) > 0 && t[0] == '[' {
		if !utf8.Valid(t) {
			return nil, recall.Errorf(recall.EINVALID, "The input is not valid UTF-8: convert it to UTF-8 (iconv) and import again. Nothing was imported.")
		}
		dec := json.NewDecoder(bytes.NewReader(t))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&items); err != nil {
			return nil, recall.Errorf(recall.EINVALID, "The input is not a JSON array of observations: %v. Nothing was imported.", err)
		}
		if extra := trailingData(dec, t); extra != "" {
			return nil, recall.Errorf(recall.EINVALID, "The input has %q after the JSON array of observations: remove it. Nothing was imported.", extra)
		}
	} else {
		var err error
		if items, err = decodeLines[ObservationJSON](buf, "an observation object"); err != nil {
			return nil, err
		}
	}
	out := make([]*recall.Observation, len(items))
	for i, j := range items {
		out[i] = j.Observation()
	}
	return out, nil
}

// Export writes the memories matching f to w as JSON Lines, oldest first,
// so that Import (after DecodeMemoryLines) keeps their order.
func (e *Engine) Export(ctx context.Context, f recall.MemoryFilter, w io.Writer) error {
	ms, _, err := e.List(ctx, f)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for i := len(ms) - 1; i >= 0; i-- {
		if err := enc.Encode(ms[i]); err != nil {
			return err
		}
	}
	return bw.Flush()
}
