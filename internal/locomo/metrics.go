package locomo

import (
	"encoding/json"
	"math"
	"strconv"
)

// Metrics are retrieval figures averaged over questions.
type Metrics struct {
	N       int
	Recall  map[int]float64 // R@k for each k asked for
	All5    float64         `json:"All@5"`
	All10   float64         `json:"All@10"`
	SessAny float64         `json:"SessAny@5"`
	NDCG10  float64         `json:"NDCG@10"`
	MRR     float64         `json:"MRR"`
}

// Score returns one question's figures for a ranked list of dialog ids,
// with R@k for every k in ks.
func Score(ranked, gold []string, ks []int) Metrics {
	g := map[string]bool{}
	sessions := map[int]bool{}
	for _, id := range gold {
		g[id] = true
		sessions[SessionOf(id)] = true
	}
	m := Metrics{N: 1, Recall: map[int]float64{}}
	recall := func(k int) float64 {
		hit := 0
		for i := 0; i < k && i < len(ranked); i++ {
			if g[ranked[i]] {
				hit++
			}
		}
		return float64(hit) / float64(len(g))
	}
	all := func(k int) float64 {
		if recall(k) == 1 {
			return 1
		}
		return 0
	}
	for _, k := range ks {
		m.Recall[k] = recall(k)
	}
	m.All5, m.All10 = all(5), all(10)
	for i := 0; i < 5 && i < len(ranked); i++ {
		if sessions[SessionOf(ranked[i])] {
			m.SessAny = 1
			break
		}
	}
	var dcg, idcg float64
	for i := 0; i < 10; i++ {
		if i < len(ranked) && g[ranked[i]] {
			dcg += 1 / math.Log2(float64(i+2))
		}
		if i < len(g) {
			idcg += 1 / math.Log2(float64(i+2))
		}
	}
	m.NDCG10 = dcg / idcg
	for i, id := range ranked {
		if g[id] {
			m.MRR = 1 / float64(i+1)
			break
		}
	}
	return m
}

// Add accumulates another question's (or group's) figures.
func (m *Metrics) Add(o Metrics) {
	m.N += o.N
	if m.Recall == nil {
		m.Recall = map[int]float64{}
	}
	for k, v := range o.Recall {
		m.Recall[k] += v
	}
	m.All5 += o.All5
	m.All10 += o.All10
	m.SessAny += o.SessAny
	m.NDCG10 += o.NDCG10
	m.MRR += o.MRR
}

// Mean returns the averages of accumulated sums.
func (m Metrics) Mean() Metrics {
	if m.N == 0 {
		return m
	}
	n := float64(m.N)
	out := Metrics{N: m.N, Recall: map[int]float64{}, All5: m.All5 / n, All10: m.All10 / n,
		SessAny: m.SessAny / n, NDCG10: m.NDCG10 / n, MRR: m.MRR / n}
	for k, v := range m.Recall {
		out.Recall[k] = v / n
	}
	return out
}

// MarshalJSON writes the figures flat, with recall as "R@k" keys.
func (m Metrics) MarshalJSON() ([]byte, error) {
	out := map[string]any{"n": m.N, "All@5": round(m.All5), "All@10": round(m.All10),
		"SessAny@5": round(m.SessAny), "NDCG@10": round(m.NDCG10), "MRR": round(m.MRR)}
	for k, v := range m.Recall {
		out["R@"+strconv.Itoa(k)] = round(v)
	}
	return json.Marshal(out)
}

func round(v float64) float64 { return math.Round(v*10000) / 10000 }
