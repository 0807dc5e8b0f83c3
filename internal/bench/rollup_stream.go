package bench

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"time"

	"github.com/recall-mem/recall"
)

// benchKey is one thing the synthetic user talks about: a preference that
// changes on some days, or a fact that repeats unchanged.
type benchKey struct {
	typ, title string
	values     []string
	changes    []int   // days on which the value moves to the next one
	p          float64 // chance it is mentioned on a given day
}

func (k benchKey) key() string { return recall.Slugify(k.title) }

// valueOn returns the value in force on day d.
func (k benchKey) valueOn(d int) string {
	i := 0
	for _, c := range k.changes {
		if d >= c {
			i++
		}
	}
	return k.values[i%len(k.values)]
}

// benchStream generates a deterministic stream of days: preferences that
// change, facts that repeat, unkeyed notes and command observations as
// noise. Each day is generated on demand, so a year never sits in memory.
type benchStream struct {
	start time.Time
	days  int
	keys  []benchKey
	seed  uint64
	// latest is the value each key was last stated with: the truth a
	// context must carry at the end.
	latest map[string]string
}

var noiseWords = strings.Fields(`build deploy review ticket meeting branch merge refactor cache index query latency
	budget roadmap sprint lunch coffee invoice laptop network backup schema migration release hotfix docs
	design sketch retro onboarding travel train flight hotel dentist garden bicycle recipe`)

func newBenchStream(start time.Time, days int, seed uint64) *benchStream {
	rng := rand.New(rand.NewPCG(seed, 1))
	prefs := []benchKey{
		{typ: "preference", title: "Editor", values: []string{"uses Vim", "uses Helix", "uses Zed"}},
		{typ: "preference", title: "Theme", values: []string{"prefers a dark theme", "prefers a light theme"}},
		{typ: "preference", title: "Shell", values: []string{"uses bash", "uses zsh", "uses fish"}},
		{typ: "preference", title: "Indentation", values: []string{"indents with tabs", "indents with four spaces"}},
		{typ: "preference", title: "Browser", values: []string{"uses Firefox", "uses Chrome"}},
		{typ: "constraint", title: "Deploy window", values: []string{"deploys only on weekday mornings", "deploys any time after review"}},
	}
	for i := range prefs {
		n := 1 + rng.IntN(3)
		for j := 0; j < n && days > 20; j++ {
			prefs[i].changes = append(prefs[i].changes, 10+rng.IntN(days-20))
		}
		sort.Ints(prefs[i].changes)
		prefs[i].p = 0.5
	}
	facts := []benchKey{
		{typ: "fact", title: "City", values: []string{"lives in Berlin"}, p: 0.3},
		{typ: "fact", title: "Employer", values: []string{"works at Acme Robotics"}, p: 0.3},
		{typ: "fact", title: "Dog", values: []string{"has a dog named Rex"}, p: 0.2},
		{typ: "fact", title: "Language", values: []string{"writes Go at work"}, p: 0.4},
	}
	return &benchStream{start: start, days: days, keys: append(prefs, facts...), seed: seed, latest: map[string]string{}}
}

// day returns the memories and observations of day d.
func (s *benchStream) day(d int) ([]*recall.Memory, []*recall.Observation) {
	rng := rand.New(rand.NewPCG(s.seed, uint64(d)+2))
	at := func() time.Time {
		return s.start.AddDate(0, 0, d).Add(time.Duration(7*60+rng.IntN(15*60)) * time.Minute)
	}
	var ms []*recall.Memory
	for _, k := range s.keys {
		if rng.Float64() >= k.p {
			continue
		}
		v := k.valueOn(d)
		ms = append(ms, &recall.Memory{ID: recall.NewID(), Type: k.typ, Title: k.title, Content: v, OccurredAt: at(), Confidence: 0.9})
	}
	for i := 0; i < 8; i++ {
		words := make([]string, 6+rng.IntN(8))
		for j := range words {
			words[j] = noiseWords[rng.IntN(len(noiseWords))]
		}
		ms = append(ms, &recall.Memory{ID: recall.NewID(), Type: "note", Content: strings.Join(words, " "), OccurredAt: at(), Confidence: 0.6})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].OccurredAt.Before(ms[j].OccurredAt) })
	for _, m := range ms {
		if m.Title != "" {
			s.latest[recall.Slugify(m.Title)] = m.Content
		}
	}
	var obs []*recall.Observation
	for i := 0; i < 10; i++ {
		obs = append(obs, &recall.Observation{At: at(), Type: recall.ObsCommand,
			Content: fmt.Sprintf("go test ./%s/...", noiseWords[rng.IntN(len(noiseWords))])})
	}
	return ms, obs
}
