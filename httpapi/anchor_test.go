package httpapi_test

import (
	"context"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/httpapi"
)

// An anchor that leaves the project is refused when it is written, so no
// later check reads /dev/zero or says whether a file exists elsewhere.
func TestServer_AnchorOutsideRefused(t *testing.T) {
	_, c := newServer(t, &httpapi.Server{Engine: openEngine(t), Loopback: true})
	ctx := context.Background()
	for _, p := range []string{"../../../../../dev/zero", "/etc/passwd"} {
		_, err := c.PutMemory(ctx, &recall.Memory{Content: "x", Anchors: []recall.Anchor{{Path: p, Hash: "00"}}})
		if recall.ErrorCode(err) != recall.EINVALID || !strings.Contains(recall.ErrorMessage(err), "relative to the project root") {
			t.Fatalf("%s: err %v, want invalid", p, err)
		}
	}
	res, err := c.PutMemory(ctx, &recall.Memory{Content: "x", Anchors: []recall.Anchor{{Path: "src/a.go", Hash: "00"}}})
	if err != nil {
		t.Fatal(err)
	}
	bad := []recall.Anchor{{Path: "../x", Hash: "00"}}
	if _, err := c.UpdateMemory(ctx, res.Memory.ID, recall.MemoryUpdate{Anchors: &bad}); recall.ErrorCode(err) != recall.EINVALID {
		t.Fatalf("update: err %v, want invalid", err)
	}
}
