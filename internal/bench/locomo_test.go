package bench_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/hashing"
	"github.com/recall-mem/recall/internal/bench"
	"github.com/recall-mem/recall/internal/locomo"
)

func TestParseKs(t *testing.T) {
	tests := []struct {
		in   string
		want []int
	}{
		{"5,10,20", []int{5, 10, 20}},
		{"1, 3", []int{1, 3, 5, 10}}, // 5 and 10 always: All@5, All@10, NDCG@10
		{"20,10,10", []int{5, 10, 20}},
	}
	for _, tt := range tests {
		got, err := bench.ParseKs(tt.in)
		if err != nil {
			t.Fatalf("%q: %v", tt.in, err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tt.in, diff)
		}
	}
	for _, bad := range []string{"0", "5,x", ""} {
		if _, err := bench.ParseKs(bad); err == nil || !strings.Contains(err.Error(), "invalid --k") {
			t.Errorf("%q: got %v, want an invalid --k error", bad, err)
		}
	}
}

const conversation = `[{"sample_id": "t1", "conversation": {"speaker_a": "Ann", "speaker_b": "Bo",
 "session_1_date_time": "1:56 pm on 8 May, 2023", "session_1": [
  {"speaker": "Ann", "dia_id": "D1:1", "text": "I adopted a grey kitten called Pixel."},
  {"speaker": "Bo", "dia_id": "D1:2", "text": "Lovely! I started pottery classes on Tuesdays."}],
 "session_2_date_time": "10:00 am on 9 June, 2023", "session_2": [
  {"speaker": "Ann", "dia_id": "D2:1", "text": "Where did you go on holiday?"},
  {"speaker": "Bo", "dia_id": "D2:2", "text": "Lisbon, with my sister."}]},
 "qa": [
  {"question": "What is the name of Ann's kitten?", "answer": "Pixel", "evidence": ["D1:1"], "category": 4},
  {"question": "Which classes did Bo start?", "answer": "pottery", "evidence": ["D1:2", "D9:9"], "category": 1},
  {"question": "What does Bo bake?", "evidence": [], "category": 5}]}]`

// TestLocomo_Run scores through the searcher the Product seam builds, and
// reports the settings that searcher describes.
func TestLocomo_Run(t *testing.T) {
	path := filepath.Join(t.TempDir(), "conv.json")
	if err := os.WriteFile(path, []byte(conversation), 0o600); err != nil {
		t.Fatal(err)
	}
	convs, err := locomo.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	built := 0
	var log bytes.Buffer
	l := bench.Locomo{Ks: []int{1, 5, 10}, Mode: recall.ModeBM25, Log: &log, Product: bench.Product{
		DBFile:   "recall.db",
		Embedder: func() (recall.Embedder, bool, error) { return hashing.NewHashing(64), true, nil },
		Searcher: func(mem recall.MemoryStore, _ recall.VectorSearcher) (recall.Searcher, map[string]any) {
			built++
			return mem, map[string]any{"searcher": "store bm25"}
		},
	}}
	rep, err := l.Run(context.Background(), convs)
	if err != nil {
		t.Fatal(err)
	}
	if built != 1 {
		t.Errorf("the Product's searcher was built %d times, want once per conversation", built)
	}
	if got := rep.Categories[4]; got.N != 1 || got.Recall[1] != 1 {
		t.Errorf("single-hop: got N=%d R@1=%.3f, want the kitten turn first", got.N, got.Recall[1])
	}
	if got := rep.Categories[1]; got.N != 1 || got.Recall[5] != 1 {
		t.Errorf("multi-hop: got N=%d R@5=%.3f, want the pottery turn in the top 5", got.N, got.Recall[5])
	}
	if rep.Skipped != 1 || rep.Dropped != 1 || rep.Headline.N != 2 {
		t.Errorf("got skipped %d, dropped %d, headline N %d; want 1, 1, 2", rep.Skipped, rep.Dropped, rep.Headline.N)
	}
	if rep.Config["searcher"] != "store bm25" {
		t.Errorf("config %v does not carry the searcher's description", rep.Config)
	}
	var out bytes.Buffer
	rep.WriteText(&out)
	for _, want := range []string{"CATEGORY  ", "R@1", "1 multi-hop", "4 single-hop", "headline (1-4)", `"searcher":"store bm25"`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, out.String())
		}
	}
	if !strings.Contains(log.String(), "conversation 1/1 (t1)") {
		t.Errorf("log: %q", log.String())
	}
}
