package engine

import (
	"testing"

	"github.com/recall-mem/recall"
)

func TestParseMetadata(t *testing.T) {
	raw, err := ParseMetadata("metadata", `{"source": "web"}`)
	if err != nil || string(raw) != `{"source": "web"}` {
		t.Errorf("object = %s, %v; want it kept as written", raw, err)
	}
	for _, bad := range []string{`null`, `[1]`, `"web"`, `{`} {
		_, err := ParseMetadata("metadata", bad)
		if recall.ErrorCode(err) != recall.EINVALID || recall.ErrorMessage(err) != `--metadata must be a JSON object, like '{"source": "web"}'.` {
			t.Errorf("ParseMetadata(%s) error = %v", bad, err)
		}
	}
}
