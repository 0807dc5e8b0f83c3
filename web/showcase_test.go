package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
)

// newShowcase is a UI over an engine seeded as a project looks after some
// weeks of use: the memories of `recall demo` and more, a working file
// near its budget, two months of sessions and their observations, and the
// rollups of them. The README's screenshots are taken of it.
func newShowcase(t *testing.T) *Handler {
	t.Helper()
	e := newEngine(t)
	ctx := t.Context()
	now := time.Now().UTC()
	e.Config.Working.BudgetWords = 120 // a small budget, so the working set shows against it
	memories := []recall.Memory{
		{Title: "Deploy rule", Type: "decision", Tags: []string{"deploy", "ci"}, Context: "Agreed after the March outage",
			Content: "Every deploy goes through staging first; production deploys need a green canary for an hour."},
		{Title: "Editor preference", Type: "preference", Tags: []string{"editor"}, Content: "The user switched to Helix; tabs of width 4 still."},
		{Title: "Database", Type: "fact", Tags: []string{"db"}, Content: "The primary store is PostgreSQL 15; analytics run on a nightly replica."},
		{Title: "GPU acceleration patterns", Collection: "knowledge", Tags: []string{"gpu", "performance"},
			Content: "# GPU acceleration patterns\n\nBatch small kernels; keep data resident on the device; prefer Metal on macOS."},
		{Title: "Release checklist", Type: "procedure", Tags: []string{"deploy", "release"}, Content: "Tag the release, let CI build the images, deploy to staging, watch the canary, then promote."},
		{Title: "Flaky integration test", Type: "issue", Tags: []string{"ci", "tests"}, Content: "`TestSync_Concurrent` fails one run in fifty on CI; suspected clock skew between containers."},
		{Title: "API rate limits", Type: "fact", Tags: []string{"api"}, Content: "The partner API allows 600 requests a minute per key; back off on 429 with jitter."},
		{Title: "Code review norms", Type: "preference", Tags: []string{"review"}, Content: "Small pull requests, one reviewer for docs, two for schema changes."},
		{Title: "On-call rotation", Type: "fact", Tags: []string{"ops"}, Content: "On-call rotates weekly on Mondays; the handover note goes in #ops."},
		{Title: "Logging format", Type: "decision", Tags: []string{"ops", "logs"}, Content: "Structured JSON logs with trace ids; no secrets, ever (redaction runs before writes)."},
	}
	for i := range memories {
		m := memories[i]
		m.Key, m.CreatedBy = recall.Slugify(m.Title), "showcase"
		m.OccurredAt = now.AddDate(0, 0, -7*(len(memories)-i))
		if _, err := e.Put(ctx, &m); err != nil {
			t.Fatal(err)
		}
	}
	root := filepath.Dir(e.Location.Dir)
	working := "# Working memory\n\n" +
		"- The user prefers short answers with code first.\n" +
		"- Run `make check` before every commit; it runs vet, the linters and the tests.\n" +
		"- Staging is at staging.internal; production deploys need the canary.\n" +
		"- The payments service is frozen until the audit ends on the 30th.\n" +
		"- TODO: move the nightly backup to the new bucket.\n" +
		"- Prefer table-driven tests; name subtests after the case.\n" +
		"- The mobile team owns the push-notification service.\n" +
		"- Database migrations are numbered and never edited once merged.\n"
	if err := os.WriteFile(filepath.Join(root, e.Config.Working.File), []byte(working), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := e.SyncProject(ctx, "", now); err != nil {
		t.Fatal(err)
	}
	types := []string{recall.ObsUserPrompt, recall.ObsCommand, recall.ObsCommand, recall.ObsFileRead, recall.ObsFileRead,
		recall.ObsFileEdit, recall.ObsCommandError, recall.ObsSearch, recall.ObsFileRead, recall.ObsCommand}
	for day := 56; day >= 1; day -= 2 {
		start := now.AddDate(0, 0, -day).Truncate(time.Hour)
		id := fmt.Sprintf("s-%s", start.Format("0102"))
		if _, err := e.StartSession(ctx, &recall.Session{ID: id, Project: "shop", Agent: "claude-code", StartedAt: start}); err != nil {
			t.Fatal(err)
		}
		var obs []*recall.Observation
		for i := range 8 + (56-day)/2 {
			typ := types[i%len(types)]
			obs = append(obs, &recall.Observation{At: start.Add(time.Duration(i) * 3 * time.Minute), Type: typ, Session: id, Project: "shop",
				Content: fmt.Sprintf("%s %d of session %s: worked on the release pipeline and its tests", typ, i, id)})
		}
		if err := e.Observe(ctx, obs); err != nil {
			t.Fatal(err)
		}
		if _, err := e.EndSession(ctx, recall.SessionEnd{ID: id, Summary: "Worked on the release pipeline; the canary check now waits an hour."}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.RunRollups(ctx, recall.RollupRun{Now: now}); err != nil {
		t.Fatal(err)
	}
	h, err := New(BackendOf(e), Options{Loopback: true})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestShowcase: the seeded store fills every plot of the overview and the
// rollups page, as the README's pictures show them.
func TestShowcase(t *testing.T) {
	f := &fixture{t: t, h: newShowcase(t)}
	body := f.get("/").Body.String()
	contains(t, "overview", body, `aria-label="Recorded per week: memories and observations"`, `aria-label="Working memory against its budget (words)"`,
		`aria-label="Tokens held, raw entries and rollups"`, `id="compression-note"`, `id="health-summary"`, "s-")
	list := f.get("/rollups").Body.String()
	contains(t, "rollups", list, `<h2 id="list">4h rollups</h2>`, `<a href="/rollups?bucket=daily">daily</a>`)
	// A rollup's page lists its sources: a 4h rollup's are observations,
	// a daily rollup's are the 4h rollups, each a link.
	first := regexp.MustCompile(`<a href="/rollups/([^"?]+)">`).FindStringSubmatch(list)
	if first == nil {
		t.Fatal("no rollup linked from the 4h listing")
	}
	contains(t, "4h rollup", f.get("/rollups/"+first[1]).Body.String(), "<h1>4h rollup, ", `<span class="tag">observation</span>`, "worked on the release pipeline")
	daily := regexp.MustCompile(`<a href="/rollups/([^"?]+)">`).FindStringSubmatch(f.get("/rollups?bucket=daily").Body.String())
	if daily == nil {
		t.Fatal("no daily rollup")
	}
	contains(t, "daily rollup", f.get("/rollups/"+daily[1]).Body.String(), `<span class="tag">rollup</span>`, `<a href="/rollups/`)
	if w := f.get("/rollups?bucket=hourly"); w.Code != http.StatusBadRequest {
		t.Errorf("unknown bucket: got %d", w.Code)
	}
	if w := f.get("/rollups/00000000-0000-0000-0000-000000000000"); w.Code != http.StatusNotFound {
		t.Errorf("missing rollup: got %d", w.Code)
	}
	if !regexp.MustCompile(`<p id="compression-note">\d+ rolled-up entries hold about \d+ tokens; their 4h rollups hold \d+, [\d.]+× less.</p>`).MatchString(body) {
		t.Error("no compression sentence on the overview")
	}
}

// TestPages_Health: the overview runs the doctor's checks once, keeps the
// report, and runs them again on request.
func TestPages_Health(t *testing.T) {
	f := newFixture(t, Options{Loopback: true})
	d := &countingDoctor{}
	f.h.b.Health = d
	contains(t, "health", f.get("/").Body.String(), `<h2 id="health">Store health</h2>`, "Worst result: warn", `<span class="tag health-warn">warn</span> hooks`)
	f.get("/")
	if d.calls != 1 {
		t.Fatalf("two views ran the checks %d times, want once", d.calls)
	}
	c := f.csrf()
	if w := f.post("/health", url.Values{csrfField: {c.Value}}, c); w.Code != http.StatusSeeOther || d.calls != 2 {
		t.Fatalf("check again: %d, %d runs", w.Code, d.calls)
	}
	f.h.b.Health = nil
	f.h.checks.forget()
	if strings.Contains(f.get("/").Body.String(), "Store health") {
		t.Error("health shown without a doctor")
	}
}

type countingDoctor struct{ calls int }

func (d *countingDoctor) Doctor(context.Context, ...func() engine.Check) ([]engine.Check, error) {
	d.calls++
	return []engine.Check{{Name: "integrity", Status: engine.CheckOK}, {Name: "hooks", Status: engine.CheckWarn, Details: []string{"not installed"}}}, nil
}

// TestPages_GrowthChart: each series is scaled to its own largest week,
// and a week with something in it always shows.
func TestPages_GrowthChart(t *testing.T) {
	c := newColumnChart("t", "a", "b", []column{{Label: "w1", A: 0, B: 1000}, {Label: "w2", A: 4, B: 1}, {Label: "w3", A: 2, B: 500}})
	var got []string
	for _, col := range c.Cols {
		got = append(got, fmt.Sprintf("%d/%d:%v", col.HA, col.HB, col.LabelShown))
	}
	if want := "0/120:true 120/1:false 60/60:true"; strings.Join(got, " ") != want {
		t.Errorf("columns %v, want %s", got, want)
	}
}
