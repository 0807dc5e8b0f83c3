package engine

import (
	"encoding/json"

	"github.com/recall-mem/recall"
)

// ParseMetadata checks that s, given as flag (named in the error), is a
// JSON object, and returns it as it was written.
func ParseMetadata(flag, s string) (json.RawMessage, error) {
	var obj map[string]any
	if err := json.Unmarshal([]byte(s), &obj); err != nil || obj == nil {
		return nil, recall.Errorf(recall.EINVALID, "--%s must be a JSON object, like '{\"source\": \"web\"}'.", flag)
	}
	return json.RawMessage(s), nil
}
