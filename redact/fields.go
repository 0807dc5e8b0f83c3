package redact

import (
	"bytes"
	"encoding/json"

	"github.com/recall-mem/recall"
)

// Fields redacts with r, in place, every text field, every tag and every
// string value of the metadata (at any depth), and records the counts of
// what it removed in the metadata under "redacted". Tags are copied before
// they change: the slice may be the caller's. A nil r changes nothing.
// Every store redacts through it, so a secret is removed the same way
// whichever store keeps the text.
func Fields(r recall.Redactor, meta *json.RawMessage, tags *[]string, fields ...*string) error {
	if r == nil {
		return nil
	}
	counts := map[string]int{}
	redact := func(s string) string {
		if s == "" {
			return s
		}
		out, c := r.Redact(s)
		for k, n := range c {
			counts[k] += n
		}
		return out
	}
	for _, f := range fields {
		*f = redact(*f)
	}
	if tags != nil {
		var out []string
		for i, t := range *tags {
			if r := redact(t); r != t && out == nil {
				out = append([]string(nil), *tags...)
				out[i] = r
			} else if out != nil {
				out[i] = r
			}
		}
		if out != nil {
			*tags = out
		}
	}
	if len(*meta) > 0 {
		m, err := redactMetadata(*meta, redact)
		if err != nil {
			return err
		}
		*meta = m
	}
	if len(counts) == 0 {
		return nil
	}
	m, err := withRedactionCounts(*meta, counts)
	if err != nil {
		return err
	}
	*meta = m
	return nil
}

// redactMetadata passes every string value of metadata through redact,
// except the counts under "redacted". Metadata that holds no secret comes
// back as it was, byte for byte; numbers keep their digits. Whether it
// must be an object is for the caller's validation to say.
func redactMetadata(meta json.RawMessage, redact func(string) string) (json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(meta))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, recall.Errorf(recall.EINVALID, "Metadata must be a JSON object, like {\"source\": \"web\"}.")
	}
	obj, _ := v.(map[string]any) // nil for anything but an object
	kept, hasCounts := obj["redacted"]
	delete(obj, "redacted")
	v, changed := redactValue(v, redact)
	if hasCounts {
		obj["redacted"] = kept
	}
	if !changed {
		return meta, nil
	}
	return json.Marshal(v)
}

// redactValue redacts the strings inside a decoded JSON value and reports
// whether any changed.
func redactValue(v any, redact func(string) string) (any, bool) {
	switch x := v.(type) {
	case string:
		r := redact(x)
		return r, r != x
	case []any:
		changed := false
		for i, e := range x {
			if ne, ok := redactValue(e, redact); ok {
				x[i], changed = ne, true
			}
		}
		return x, changed
	case map[string]any:
		changed := false
		for k, e := range x {
			if ne, ok := redactValue(e, redact); ok {
				x[k], changed = ne, true
			}
		}
		return x, changed
	}
	return v, false
}

// withRedactionCounts records how many secrets of each kind were removed
// under metadata key "redacted" (of an observation or a memory), so that a
// reader knows text is missing without learning the secret. Counts already
// there (a hook redacts before it trims; an update keeps what the put
// removed) add up.
func withRedactionCounts(meta json.RawMessage, counts map[string]int) (json.RawMessage, error) {
	obj := map[string]json.RawMessage{}
	if len(meta) > 0 {
		if err := json.Unmarshal(meta, &obj); err != nil {
			return nil, recall.Errorf(recall.EINVALID, "Metadata must be a JSON object, like {\"source\": \"web\"}.")
		}
	}
	if prev, ok := obj["redacted"]; ok {
		var was map[string]int
		if json.Unmarshal(prev, &was) == nil {
			for k, n := range was {
				counts[k] += n
			}
		}
	}
	c, err := json.Marshal(counts)
	if err != nil {
		return nil, err
	}
	obj["redacted"] = c
	return json.Marshal(obj)
}
