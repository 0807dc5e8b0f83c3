package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/chunk"
	"github.com/recall-mem/recall/sqlite"
)

// paraphraseProbe is testdata/paraphrase/probe.json.
type paraphraseProbe struct {
	Memories []string `json:"memories"`
	Probes   []struct {
		Query  string `json:"query"`
		Target int    `json:"target"`
	} `json:"probes"`
}

// probeStopwords are the words a paraphrase may share with its target.
var probeStopwords = strings.Fields(`a an the and or of to in on at for by with from is are was were be been
do does did we our you your he she his her it its they their i my me how what when where which who why can
get go over about after before every each than then that this there these those one two`)

func contentWords(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if !contains(probeStopwords, w) {
			out[w] = true
		}
	}
	return out
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// probeTop3 loads the probe into a fresh store with the named embedder and
// returns the share of queries whose target is in the top 3 of the
// default hybrid search.
func probeTop3(t *testing.T, p *paraphraseProbe, embedder string) float64 {
	t.Helper()
	ctx := context.Background()
	db := sqlite.NewDB(filepath.Join(t.TempDir(), dbFile))
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := db.Check(ctx); err != nil {
			t.Error(err)
		}
		db.Close()
	})
	cfg := defaultConfig()
	cfg.Retrieval.Embedder = embedder
	e, inline, err := newEmbedder(cfg.Retrieval)
	if err != nil {
		t.Fatal(err)
	}
	mem := sqlite.NewMemoryService(db)
	vec := sqlite.NewVectorService(db, e, chunk.Splitter{})
	vec.Inline = inline
	ms := make([]*recall.Memory, len(p.Memories))
	for i, text := range p.Memories {
		ms[i] = &recall.Memory{Content: text, Type: "note"}
	}
	if _, err := mem.ImportMemories(ctx, ms); err != nil {
		t.Fatal(err)
	}
	if err := vec.DrainQueue(ctx, 0); err != nil {
		t.Fatal(err)
	}
	a := newApp(nil, nil, nil)
	s, _ := a.eng.SearcherFor(mem, vec, nil, cfg)
	found := 0
	for _, pr := range p.Probes {
		hits, err := s.Search(ctx, recall.SearchQuery{Text: pr.Query, Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hits {
			if h.Memory.Content == p.Memories[pr.Target] {
				found++
				break
			}
		}
	}
	return float64(found) / float64(len(p.Probes))
}

// TestParaphraseProbe: queries that share no content word with their
// target, among 100 distractors (a lexical look-alike for each query):
// the default (sentence encoder) search finds the target in the top 3
// for at least 40% of them; the hashing embedder is reported beside it.
func TestParaphraseProbe(t *testing.T) {
	b, err := os.ReadFile("testdata/paraphrase/probe.json")
	if err != nil {
		t.Fatal(err)
	}
	var p paraphraseProbe
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	if len(p.Probes) < 30 || len(p.Memories)-len(p.Probes) < 100 {
		t.Fatalf("probe has %d queries and %d distractors, want ≥ 30 and ≥ 100", len(p.Probes), len(p.Memories)-len(p.Probes))
	}
	for _, pr := range p.Probes {
		target := contentWords(p.Memories[pr.Target])
		for w := range contentWords(pr.Query) {
			if target[w] {
				t.Errorf("query %q shares %q with its target", pr.Query, w)
			}
		}
	}
	builtin := probeTop3(t, &p, "builtin")
	hashing := probeTop3(t, &p, "hashing")
	t.Logf("paraphrase probe top-3: builtin %.0f%%, hashing %.0f%% (%d queries)", 100*builtin, 100*hashing, len(p.Probes))
	if builtin < 0.4 {
		t.Errorf("builtin finds %.0f%% of paraphrases in the top 3, want ≥ 40%%", 100*builtin)
	}
}
