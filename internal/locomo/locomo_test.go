package locomo_test

import (
	"math"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recall-mem/recall/internal/locomo"
)

func TestNormaliseEvidence(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"D1:3", []string{"D1:3"}},
		{"D8:6; D9:17", []string{"D8:6", "D9:17"}},
		{"D:11:26", []string{"D11:26"}},
		{"D30:05", []string{"D30:5"}},
		{"D9:1 D4:4 D4:6", []string{"D9:1", "D4:4", "D4:6"}},
		{"nonsense", nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, locomo.NormaliseEvidence(tt.in)); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tt.in, diff)
		}
	}
}

const sample = `[{"sample_id": "s1", "conversation": {"speaker_a": "Ann", "speaker_b": "Bo",
 "session_1_date_time": "1:56 pm on 8 May, 2023", "session_1": [
  {"speaker": "Ann", "dia_id": "D1:1", "text": "Hi!"},
  {"speaker": "Bo", "dia_id": "D1:2", "text": "Look", "blip_caption": "a photo of a dog"}],
 "session_2_date_time": "10:00 am on 9 June, 2023", "session_2": [
  {"speaker": "Ann", "dia_id": "D2:1", "text": "Moved to Lisbon."}]},
 "qa": [
  {"question": "Where did Ann move?", "answer": "Lisbon", "evidence": ["D2:01", "D7:7"], "category": 4},
  {"question": "What did Bo share?", "answer": "dog", "evidence": ["D1:2; D:2:1"], "category": 1},
  {"question": "Unanswerable?", "evidence": [], "category": 5}]}]`

func TestParse(t *testing.T) {
	convs, err := locomo.Parse([]byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	c := convs[0]
	if len(c.Turns) != 3 || c.Turns[1].Content() != "Bo: Look [shares a photo of a dog]" || c.Turns[2].Session != 2 {
		t.Fatalf("turns: %+v", c.Turns)
	}
	if got := c.Turns[0].At.Format("2006-01-02 15:04"); got != "2023-05-08 13:56" {
		t.Fatalf("time %s", got)
	}
	if len(c.Questions) != 2 || c.Skipped != 1 || c.Dropped != 1 {
		t.Fatalf("questions %+v skipped %d dropped %d", c.Questions, c.Skipped, c.Dropped)
	}
	if diff := cmp.Diff([]string{"D1:2", "D2:1"}, c.Questions[1].Evidence); diff != "" {
		t.Fatal(diff)
	}
}

func TestScore(t *testing.T) {
	m := locomo.Score([]string{"D1:1", "D2:5", "D1:2", "D3:1"}, []string{"D1:2", "D9:9"}, []int{1, 5})
	want := map[int]float64{1: 0, 5: 0.5}
	if diff := cmp.Diff(want, m.Recall); diff != "" {
		t.Fatal(diff)
	}
	idcg := 1 + 1/math.Log2(3)
	if m.All5 != 0 || m.SessAny != 1 || math.Abs(m.MRR-1.0/3) > 1e-9 || math.Abs(m.NDCG10-(1/math.Log2(4))/idcg) > 1e-9 {
		t.Fatalf("%+v", m)
	}
}

// TestLoad_DevSplit reads the real development split when it is present
// next to the repository (it is CC BY-NC and never committed).
func TestLoad_DevSplit(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	// ../shared relative to the repository root; a worktree sits one level
	// deeper, so look further up too.
	var path string
	for dir := filepath.Dir(filepath.Dir(file)); ; dir = filepath.Dir(dir) {
		p := filepath.Join(filepath.Dir(dir), "shared", "data", "locomo", "locomo-dev.json")
		if _, err := os.Stat(p); err == nil {
			path = p
			break
		}
		if dir == filepath.Dir(dir) {
			t.Skip("LoCoMo dev split not found in ../shared/data/locomo/ above the repository; skipping")
		}
	}
	convs, err := locomo.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	n, skipped := 0, 0
	for _, c := range convs {
		skipped += c.Skipped
		for _, q := range c.Questions {
			if q.Category <= 4 {
				n++
			}
		}
	}
	if len(convs) != 5 || n != 786 || skipped != 2 {
		t.Fatalf("%d conversations, %d headline questions, %d skipped", len(convs), n, skipped)
	}
}

func FuzzNormaliseEvidence(f *testing.F) {
	for _, s := range []string{"D1:3", "D8:6; D9:17", "D:11:26", "D30:05", "D9:1 D4:4 D4:6", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, id := range locomo.NormaliseEvidence(s) {
			again := locomo.NormaliseEvidence(id)
			if len(again) != 1 || again[0] != id || locomo.SessionOf(id) < 0 {
				t.Fatalf("%q: %q does not normalise to itself", s, id)
			}
		}
	})
}
