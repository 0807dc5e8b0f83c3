package sentence

import (
	"context"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/recall-mem/recall/internal/synth"
)

// BenchmarkLoad decodes the embedded weights, as the first embedding in a
// process does.
func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		e := &Encoder{}
		if err := e.Load(); err != nil {
			b.Fatal(err)
		}
	}
}

// benchmarkText returns a text of about n pieces.
func benchmarkText(b *testing.B, n int) string {
	e := Default()
	words := strings.Fields("we decided to move the nightly billing export to the new cluster after the outage last week because the old disks kept filling up and nobody was paged in time so the team agreed on alerts")
	text := ""
	for i := 0; ; i++ {
		next := strings.TrimSpace(text + " " + words[i%len(words)])
		ids, err := e.Tokens(next)
		if err != nil {
			b.Fatal(err)
		}
		if len(ids) > n {
			return text
		}
		text = next
	}
}

// BenchmarkQuery embeds one query of 20 words, as a search does; it
// reports the 95th percentile.
func BenchmarkQuery(b *testing.B) {
	e := Default()
	q := "how do we ship a release to production when the canary fails the health check on the staging cluster"
	if err := e.Load(); err != nil {
		b.Fatal(err)
	}
	var lat []time.Duration
	cpu0 := cpuTime()
	for b.Loop() {
		start := time.Now()
		if _, err := e.Embed(context.Background(), []string{q}); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	b.ReportMetric(float64(percentile(lat, 0.95).Microseconds())/1000, "p95-ms")
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

// BenchmarkQuestions embeds the scale benchmark's first 200 questions
// (the queries of TestSearchFigures in cmd/recall) one at a time, as
// searches do: the short ones (under 12 pieces; 5 to 33 in all) and the
// long ones (24 pieces or more) in turn, each reporting CPU per query.
func BenchmarkQuestions(b *testing.B) {
	e := Default()
	corpus := synth.New(1, synth.DefaultVocab)
	var short, long []string
	for q := range 200 {
		text, _ := corpus.Query(q, 100000)
		ids, err := e.Tokens(text)
		if err != nil {
			b.Fatal(err)
		}
		switch {
		case len(ids) < 12:
			short = append(short, text)
		case len(ids) >= 24:
			long = append(long, text)
		}
	}
	for _, set := range []struct {
		name  string
		texts []string
	}{{"short", short}, {"long", long}} {
		b.Run(set.name, func(b *testing.B) {
			cpu0, i := cpuTime(), 0
			for b.Loop() {
				if _, err := e.Embed(context.Background(), set.texts[i%len(set.texts):i%len(set.texts)+1]); err != nil {
					b.Fatal(err)
				}
				i++
			}
			b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
		})
	}
}

// BenchmarkSentence40 embeds 40-piece sentences one after another, as the
// background queue does; sentences/s is per process (GOMAXPROCS cores).
func BenchmarkSentence40(b *testing.B) {
	e := Default()
	text := benchmarkText(b, 40)
	cpu0 := cpuTime()
	for b.Loop() {
		if _, err := e.Embed(context.Background(), []string{text}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "sentences/s")
	// CPU time, unlike wall time, is not inflated by other processes
	// sharing the cores.
	b.ReportMetric(float64(b.N)/(cpuTime()-cpu0).Seconds(), "sentences/cpu-s")
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func percentile(d []time.Duration, p float64) time.Duration {
	s := append([]time.Duration(nil), d...)
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return s[int(p*float64(len(s)-1))]
}
