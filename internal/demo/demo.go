// Package demo is the narrated walk-through `recall demo` runs: the
// memories it stores, the queries it asks and the order of the steps, on
// an engine whose store the caller opened (a temporary one).
package demo

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
)

// Run puts, searches, updates, versions, deletes and restores memories,
// records observations, packs a context and checks the store, telling w
// what each step shows. now is the clock searches rank against.
func Run(ctx context.Context, eng *engine.Engine, w io.Writer, now func() time.Time) error {
	say := func(format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }
	say("recall demo: a temporary embedded store at %s\n", eng.Location.Dir)

	docs := []recall.Memory{
		{Title: "Deploy rule", Type: "decision", Tags: []string{"deploy", "ci"}, Context: "Agreed after the March outage",
			Content: "Every deploy goes through staging first; production deploys need a green canary for 30 minutes."},
		{Title: "Editor preference", Type: "preference", Tags: []string{"editor"}, Content: "The user prefers Neovim with tabs of width 4."},
		{Title: "Database", Type: "fact", Tags: []string{"db"}, Content: "The primary store is PostgreSQL 15; analytics run on a nightly replica."},
		{Title: "GPU acceleration patterns", Collection: "knowledge", Tags: []string{"gpu", "performance"},
			Content: "# GPU acceleration patterns\n\nBatch small kernels; keep data resident on the device; prefer Metal on macOS."},
	}
	say("1. put: store %d memories (keys come from their titles)", len(docs))
	var ids []string
	for i := range docs {
		m := docs[i]
		m.Key, m.CreatedBy = recall.Slugify(m.Title), "demo"
		res, err := eng.Put(ctx, &m)
		if err != nil {
			return err
		}
		ids = append(ids, res.Memory.ID)
		say("   %s  %-28s collection=%s", res.Memory.ID, res.Memory.Key, res.Memory.Collection)
	}

	if eng.VectorStore() != nil && !eng.VectorStore().EmbedsInline() {
		// A server embeds queued memories in the background; the demo
		// has no server, so it drains the queue itself.
		if err := eng.VectorStore().DrainQueue(ctx, 0); err != nil {
			return err
		}
		say("   (embedded by the built-in sentence encoder, off the write path)")
	}

	for i, q := range []string{"which database do we use", "how do we ship a release"} {
		note := "hybrid: BM25 fused with the built-in vectors, then re-ranked"
		if i == 1 {
			note = "no word in common with the answer: found by meaning"
		}
		say("\n2%c. search %q (%s)", 'a'+i, q, note)
		hits, err := eng.Search(ctx, recall.SearchQuery{Text: q, Limit: 3, Now: now()})
		if err != nil {
			return err
		}
		for _, h := range hits {
			say("   %.3f  %s  %s", h.Score, h.Memory.ID, h.Memory.Title)
		}
	}

	say("\n3. get deploy-rule --format context (text ready to inject into a prompt)")
	m, err := eng.Get(ctx, "deploy-rule", "")
	if err != nil {
		return err
	}
	for _, line := range strings.Split(strings.TrimRight(engine.ContextText(m), "\n"), "\n") {
		say("   | %s", line)
	}

	say("\n4. update: the canary window changes; every change is a new version")
	content := strings.Replace(m.Content, "30 minutes", "an hour", 1)
	tags := []string{"canary"}
	if m, err = eng.Update(ctx, m.ID, recall.MemoryUpdate{Content: &content, Tags: &tags, MergeTags: true}); err != nil {
		return err
	}
	say("   %s is now version %d, tags %s", m.ID, m.Version, strings.Join(m.Tags, ","))

	say("\n5. put the same key again: a new version, not a duplicate")
	res, err := eng.Put(ctx, &recall.Memory{Key: "editor-preference", Title: "Editor preference", Type: "preference",
		Content: "The user switched to Helix; tabs of width 4 still."})
	if err != nil {
		return err
	}
	say("   %s created=%v version=%d", res.Memory.ID, res.Created, res.Memory.Version)

	say("\n6. delete, then restore from history")
	if err := eng.Delete(ctx, ids[2]); err != nil {
		return err
	}
	_, total, _ := eng.List(ctx, recall.MemoryFilter{})
	say("   deleted %s; %d memories remain", ids[2], total)
	if m, err = eng.Restore(ctx, ids[2], 1); err != nil {
		return err
	}
	vs, _ := eng.Versions(ctx, m.ID)
	var ops []string
	for _, v := range vs {
		ops = append(ops, v.Op)
	}
	say("   restored as version %d; history: %s", m.Version, strings.Join(ops, " → "))

	say("\n7. observe: hooks record what an agent does; secrets are redacted before anything is written")
	obs := []*recall.Observation{
		{Type: recall.ObsCommand, Session: "demo-1", Tool: "Bash", Content: "export OPENAI_API_KEY=sk-proj-AbCdEf0123456789AbCdEf0123456789AbCdEf01 && make deploy"},
		{Type: recall.ObsCommandError, Session: "demo-1", Tool: "Bash", Content: "make deploy: canary failed health check on /healthz"},
	}
	if err := eng.Observe(ctx, obs); err != nil {
		return err
	}
	for _, o := range obs {
		say("   #%d %-13s %s", o.ID, o.Type, recall.OneLine(o.Content, 80))
	}

	say("\n8. context: what an agent sees for \"how do we deploy\", packed into 120 tokens")
	p, err := eng.Context(ctx, recall.ContextRequest{Query: "how do we deploy", Budget: 120, Now: now()})
	if err != nil {
		return err
	}
	for _, line := range strings.Split(strings.TrimRight(p.Text, "\n"), "\n") {
		say("   | %s", line)
	}
	say("   %d of %d tokens used (o200k tokenizer); %d items did not fit", p.Tokens, p.Budget, p.Dropped)

	say("\n9. check the store: SQLite integrity_check and FTS5 integrity-check")
	if err := eng.Check(ctx); err != nil {
		return err
	}
	say("   ok")
	return nil
}
