package maintain_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/maintain"
)

// BenchmarkPlan plans over 2,000 entries (200 working, 1,800 in registers)
// of 5–20 words drawn from a small vocabulary, the worst case for the
// pairwise contradiction check. Run: go test ./maintain -bench Plan
func BenchmarkPlan(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	vocab := strings.Fields("alpha beta gamma delta deploy staging parser release database cache token budget review prefers uses runs nightly weekly Alice Bob 15 16 2026-01-01 not")
	in := maintain.Input{Now: now, Budget: 1500}
	for i := 0; i < 2000; i++ {
		var w []string
		for j := 0; j < 5+rng.IntN(16); j++ {
			w = append(w, vocab[rng.IntN(len(vocab))])
		}
		file := "memory/registers/r.md"
		if i < 200 {
			file = "CLAUDE.local.md"
		}
		entry(&in, fmt.Sprintf("tr%010x", i+1), file, strings.Join(w, " "), recall.Memory{ReviewedAt: daysAgo(rng.IntN(90))})
	}
	b.ResetTimer()
	for b.Loop() {
		maintain.Plan(in)
	}
}
