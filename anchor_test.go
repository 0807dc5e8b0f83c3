package recall_test

import (
	"testing"

	"github.com/recall-mem/recall"
)

func TestValidateAnchors(t *testing.T) {
	for _, p := range []string{"src/parse.go", "a.go", "docs/x y.md", ".github/workflows/ci.yml"} {
		if err := recall.ValidateAnchors([]recall.Anchor{{Path: p, Hash: "h"}}); err != nil {
			t.Errorf("%q refused: %v", p, err)
		}
	}
	for _, p := range []string{"", ".", "..", "../../../../../dev/zero", "/etc/passwd", "src/../../x", "./a.go", "a//b", "a/", "a\x00b"} {
		err := recall.ValidateAnchors([]recall.Anchor{{Path: "ok.go"}, {Path: p}})
		if recall.ErrorCode(err) != recall.EINVALID {
			t.Errorf("%q: err %v, want %s", p, err, recall.EINVALID)
		}
	}
}
