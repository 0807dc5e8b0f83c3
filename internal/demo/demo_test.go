package demo_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/engine/enginetest"
	"github.com/recall-mem/recall/hashing"
	"github.com/recall-mem/recall/internal/demo"
	"github.com/recall-mem/recall/sqlite"
)

// The walk-through runs every step on a fresh store, says what each
// shows, and redacts the secret it records.
func TestRun(t *testing.T) {
	parts := engine.Parts{
		Backend: sqlite.Backend{},
		NewEmbedder: func(engine.RetrievalConfig) (recall.Embedder, bool, error) {
			return hashing.NewHashing(64), true, nil
		},
	}
	e := enginetest.Open(t, parts, &bytes.Buffer{})
	var out bytes.Buffer
	if err := demo.Run(context.Background(), e, &out, func() time.Time { return time.Now().UTC() }); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{"1. put: store 4 memories", "is now version 2", "created=false version=2", "history: put → delete → restore", "[REDACTED:openai_key]", "tokens used", "\n   ok\n"} {
		if !strings.Contains(s, want) {
			t.Errorf("demo output lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "sk-proj-") {
		t.Errorf("the secret reached the output:\n%s", s)
	}
}
