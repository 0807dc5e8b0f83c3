package bench

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
)

// decodedHits is checkHits done with encoding/json, to compare with.
func decodedHits(body []byte, limit int) (int, bool) {
	var a struct {
		Hits *[]struct {
			Memory *struct {
				ID *string `json:"id"`
			} `json:"memory"`
		} `json:"hits"`
	}
	if err := json.Unmarshal(body, &a); err != nil || a.Hits == nil || len(*a.Hits) > limit {
		return 0, false
	}
	for _, h := range *a.Hits {
		if h.Memory == nil || h.Memory.ID == nil || *h.Memory.ID == "" {
			return 0, false
		}
	}
	return len(*a.Hits), true
}

// randomValue is a JSON value of any kind, with strings that hold
// quotes, escapes, brackets and braces.
func randomValue(r *rand.Rand, depth int) any {
	switch n := r.IntN(8); {
	case n == 0 && depth < 3:
		m := map[string]any{}
		for range r.IntN(4) {
			m[randomString(r)] = randomValue(r, depth+1)
		}
		return m
	case n == 1 && depth < 3:
		var l []any
		for range r.IntN(4) {
			l = append(l, randomValue(r, depth+1))
		}
		return l
	case n == 2:
		return r.Float64()*2e6 - 1e6
	case n == 3:
		return r.IntN(2) == 0
	case n == 4:
		return nil
	default:
		return randomString(r)
	}
}

func randomString(r *rand.Rand) string {
	parts := []string{`"`, `\`, `{`, `}`, `[`, `]`, `,`, `:`, "id", "hits", "memory", "é", "\n", "\u2028", "<&>", " ", "x"}
	s := ""
	for range r.IntN(6) {
		s += parts[r.IntN(len(parts))]
	}
	return s
}

// checkHits, walking a body json.Valid accepts, agrees with decoding it
// (the hits counted, or an error) on 20,000 random answers: hits with
// and without a memory, ids empty, missing or of another kind, the list
// missing, null or of another kind, more hits than the limit, context
// hits and other fields of every kind around them.
func TestCheckHits_AsDecoding(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	passed := 0
	for n := range 20000 {
		var hits []any
		for range r.IntN(13) {
			h := map[string]any{"score": r.Float64()}
			mem := map[string]any{"content": randomString(r), "metadata": randomValue(r, 1)}
			switch r.IntN(60) {
			case 0:
			case 1:
				mem["id"] = ""
			case 2:
				mem["id"] = randomValue(r, 2)
			default:
				mem["id"] = "tr" + randomString(r) + "1"
			}
			switch r.IntN(60) {
			case 0:
			case 1:
				h["memory"] = randomValue(r, 2)
			default:
				h["memory"] = mem
			}
			if r.IntN(3) == 0 {
				h["context"] = []any{map[string]any{"memory": map[string]any{"id": "c"}, "x": randomValue(r, 1)}}
			}
			for range r.IntN(3) {
				h[randomString(r)] = randomValue(r, 1)
			}
			hits = append(hits, h)
		}
		a := map[string]any{"hits": hits}
		switch r.IntN(20) {
		case 0:
			delete(a, "hits")
		case 1:
			a["hits"] = randomValue(r, 1)
		}
		for range r.IntN(3) {
			a[randomString(r)] = randomValue(r, 1)
		}
		var v any = a
		if r.IntN(30) == 0 {
			v = randomValue(r, 0)
		}
		body, err := json.MarshalIndent(v, "", []string{"", " ", "\t"}[r.IntN(3)])
		if err != nil {
			t.Fatal(err)
		}
		limit := 3 + r.IntN(12)
		want, ok := decodedHits(body, limit)
		got, err := checkHits(body, limit)
		if (err == nil) != ok || got != want {
			t.Fatalf("answer %d, limit %d: checkHits %d, %v; decoding %d, %v\n%s", n, limit, got, err, want, ok, body)
		}
		if ok {
			passed++
		}
	}
	if passed < 4000 || passed > 16000 {
		t.Fatalf("%d of 20,000 answers pass: the test wants both kinds", passed)
	}
}

func BenchmarkCheckHits(b *testing.B) {
	var hits []map[string]any
	for i := range 10 {
		hits = append(hits, map[string]any{"memory": map[string]any{"id": fmt.Sprintf("tr%09d", i), "content": fmt.Sprintf("%0500d", i),
			"tags": []string{"a", "b"}, "created_at": "2026-11-24T13:49:10.041Z"}, "score": 1.5, "snippet": fmt.Sprintf("%0200d", i)})
	}
	body, _ := json.Marshal(map[string]any{"hits": hits})
	b.SetBytes(int64(len(body)))
	for range b.N {
		if _, err := checkHits(body, 10); err != nil {
			b.Fatal(err)
		}
	}
}
