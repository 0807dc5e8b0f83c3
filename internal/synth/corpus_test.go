package synth_test

import (
	"strings"
	"testing"

	"github.com/recall-mem/recall/internal/synth"
)

func TestCorpus(t *testing.T) {
	a, b := synth.New(7, 5000), synth.New(7, 5000)
	t.Run("Deterministic", func(t *testing.T) {
		for i := 0; i < 50; i++ {
			ta, ca := a.Memory(i)
			tb, cb := b.Memory(i)
			qa, xa := a.Query(i, 1000)
			qb, xb := b.Query(i, 1000)
			if ta != tb || ca != cb || qa != qb || xa != xb {
				t.Fatalf("item %d differs between two corpora of one seed", i)
			}
		}
	})
	t.Run("QueriesLikeQuestions", func(t *testing.T) {
		for q := 0; q < 200; q++ {
			text, target := a.Query(q, 1000)
			n := len(strings.Fields(text))
			if n < 3 || n > 8 || !strings.HasSuffix(text, "?") || target < 0 || target >= 1000 {
				t.Fatalf("query %d = %q (%d words), target %d", q, text, n, target)
			}
		}
	})
	t.Run("ZipfVocabulary", func(t *testing.T) {
		counts := map[string]int{}
		total := 0
		for i := 0; i < 2000; i++ {
			_, c := a.Memory(i)
			for _, w := range strings.Fields(c) {
				counts[strings.ToLower(strings.Trim(w, "."))]++
				total++
			}
		}
		if len(counts) < 2000 {
			t.Fatalf("only %d distinct words in %d", len(counts), total)
		}
	})
}
