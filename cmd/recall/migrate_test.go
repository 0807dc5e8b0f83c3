package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/internal/pgtest"
)

// TestMigrate_RoundTrip copies a SQLite store to PostgreSQL and back into
// a new SQLite store: `recall export` and every memory's history
// (`recall versions`, `recall diff`) are the same in all three, deleted
// memories' included. Then a migration interrupted midway and run again
// ends with the same rows and checksums, nothing duplicated.
func TestMigrate_RoundTrip(t *testing.T) {
	c := startPostgres(t)
	if c == nil {
		return
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, "data"))
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "config"))
	t.Setenv("RECALL_STORE", "")
	t.Setenv("RECALL_AGENT", "tester")
	src, back := hashingStore(t, "src"), hashingStore(t, "back")
	ids := fillForMigrate(t, src)
	pg := c.NewDatabase(t) + "&namespace=team"

	var rep engine.MigrateReport
	if err := json.Unmarshal([]byte(cliOK(t, "--store", src, "migrate", "--to", pg, "--json")), &rep); err != nil {
		t.Fatal(err)
	}
	// Every kind has rows to compare, sync records and store facts aside
	// (no managed files here).
	for _, k := range rep.Kinds {
		if k.Copied == 0 && k.Kind != recall.CopySyncRecords && k.Kind != recall.CopyMeta {
			t.Errorf("no %s copied: %+v", k.Kind, rep)
		}
	}
	if !rep.Verified || rep.Resumed {
		t.Fatalf("first migration: %+v", rep)
	}
	cliOK(t, "--store", back, "migrate", "--from", pg)
	for _, store := range []string{pg, back} {
		for _, args := range [][]string{{"export", "--status", "any"}, {"session", "list", "--json"}, {"timeline", "--json"}} {
			want, got := cliOK(t, append([]string{"--store", src}, args...)...), cliOK(t, append([]string{"--store", store}, args...)...)
			if want != got {
				t.Errorf("%s of %s:\n%s\nwant (the source's)\n%s", args, recall.RedactURL(store), got, want)
			}
		}
		for _, id := range ids {
			for _, args := range [][]string{{"versions", id, "--json"}, {"diff", id, "--from", "1", "--json"}} {
				want, got := cliOK(t, append([]string{"--store", src}, args...)...), cliOK(t, append([]string{"--store", store}, args...)...)
				if want != got {
					t.Errorf("%s of %s:\n%s\nwant (the source's)\n%s", args, recall.RedactURL(store), got, want)
				}
			}
		}
	}

	t.Run("Killed", func(t *testing.T) { testKilledMigration(t, c) })
	t.Run("VectorsMadeOnPostgres", func(t *testing.T) {
		// The global store's config (a URL store's) embeds with the
		// hashing embedder: PostgreSQL keeps its float32 vectors, SQLite
		// quantises them, and the check compares them as SQLite keeps
		// them.
		global := filepath.Join(home, "data", "recall")
		if err := os.MkdirAll(global, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(global, engine.ConfigFile), []byte("[retrieval]\nembedder = \"hashing\"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		first := c.NewDatabase(t)
		cliOK(t, "--store", first, "put", "--text", "Made on the server: its vectors are float32 there.")
		var rep engine.MigrateReport
		if err := json.Unmarshal([]byte(cliOK(t, "--store", hashingStore(t, "from-pg"), "migrate", "--from", first, "--json")), &rep); err != nil {
			t.Fatal(err)
		}
		if !rep.Verified || rep.Kinds[5].Kind != recall.CopyVectors || rep.Kinds[5].Copied == 0 {
			t.Fatalf("%+v", rep)
		}
	})
	t.Run("Interrupted", func(t *testing.T) {
		target := c.NewDatabase(t)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		batches := 0
		o := engine.MigrateOptions{To: target, BatchSize: 1, Progress: func(p engine.MigrateProgress) {
			if p.Kind == recall.CopyVersions && p.Done > 0 {
				if batches++; batches == 3 {
					cancel() // killed midway through the versions
				}
			}
		}}
		if _, err := migrateWith(t, ctx, src, o); !errors.Is(err, context.Canceled) {
			t.Fatalf("interrupted migration: %v, want context.Canceled", err)
		}
		o.Progress, o.BatchSize = nil, 2
		finishCopy(t, c, src, o)
	})
}

// testKilledMigration kills a `recall migrate` process with SIGKILL in
// the middle of the versions, then runs it again: the copy ends verified,
// with the rows and checksums of an uninterrupted copy.
func testKilledMigration(t *testing.T, c *pgtest.Cluster) {
	// Enough versions, one transaction each, that the copy cannot finish
	// between the line read below and the kill, even on a loaded machine
	// that holds this test back (150 once did).
	const n = 1000
	src := hashingStore(t, "many")
	var lines strings.Builder
	for i := range n {
		fmt.Fprintf(&lines, `{"key":"k%d","content":"memory %d","metadata":{"n":%d}}`+"\n", i, i, i)
	}
	in := filepath.Join(t.TempDir(), "many.jsonl")
	if err := os.WriteFile(in, []byte(lines.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	cliOK(t, "--store", src, "import", in)
	target := c.NewDatabase(t)

	cmd := exec.Command("recall", "--store", src, "migrate", "--to", target, "--batch", "1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), fmt.Sprintf("copied %d memories", n)) {
			break // now copying the versions, one per transaction
		}
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL
		t.Fatal(err)
	}
	_ = cmd.Wait()
	st, err := storeBackend{}.OpenStore(target, recall.StoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	versions, err := st.Copier().CountRows(context.Background(), recall.CopyVersions)
	st.Close()
	if err != nil || versions >= n {
		t.Fatalf("the killed copy left %d versions (%v): it was not killed midway", versions, err)
	}

	finishCopy(t, c, src, engine.MigrateOptions{To: target})
}

// finishCopy runs a migration again after it stopped midway: it must
// resume the earlier copy, verify, and leave the rows and checksums of an
// uninterrupted copy into a fresh database.
func finishCopy(t *testing.T, c *pgtest.Cluster, src string, o engine.MigrateOptions) {
	t.Helper()
	rep, err := migrateWith(t, context.Background(), src, o)
	if err != nil || !rep.Resumed || !rep.Verified {
		t.Fatalf("run again: %+v, %v", rep, err)
	}
	whole, err := migrateWith(t, context.Background(), src, engine.MigrateOptions{To: c.NewDatabase(t)})
	if err != nil {
		t.Fatal(err)
	}
	for i, k := range rep.Kinds {
		if k.Target != whole.Kinds[i].Target || k.TargetChecksum != whole.Kinds[i].TargetChecksum {
			t.Errorf("%s when run again: %d rows (%s), an uninterrupted copy has %d (%s)",
				k.Kind, k.Target, k.TargetChecksum, whole.Kinds[i].Target, whole.Kinds[i].TargetChecksum)
		}
	}
}

// migrateWith runs the engine's migration from the store in dir.
func migrateWith(t *testing.T, ctx context.Context, dir string, o engine.MigrateOptions) (*engine.MigrateReport, error) {
	t.Helper()
	a := newApp(strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{})
	a.eng.StoreFlag = dir
	defer a.close()
	return a.eng.Migrate(ctx, o)
}

// hashingStore makes a store directory whose config embeds with the
// hashing embedder: vectors without loading a model.
func hashingStore(t *testing.T, name string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, engine.ConfigFile), []byte("[retrieval]\nembedder = \"hashing\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

// fillForMigrate writes memories with several versions, a deleted one,
// observations, a session and rollups, and returns every memory's id.
func fillForMigrate(t *testing.T, dir string) []string {
	t.Helper()
	put := func(args ...string) string {
		var out struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal([]byte(cliOK(t, append([]string{"--store", dir, "put", "--json"}, args...)...)), &out); err != nil {
			t.Fatal(err)
		}
		return out.ID
	}
	ids := []string{
		put("--key", "editor", "--title", "Editor", "--tags", "tools,editor", "--metadata", `{"z": 1, "a": {"b": [1, 2]}}`, "--text", "The editor is vim."),
		put("--title", "Deploys", "--type", "procedure", "--pin", "--text", "Deploys go through staging first.\n\nThen production, on a Tuesday."),
		put("--key", "gone", "--text", "This one is deleted but keeps its history."),
		put("--key", "city", "--occurred-at", "2026-01-05T10:00:00Z", "--confidence", "0.5", "--text", "The user lives in Berlin."),
	}
	cliOK(t, "--store", dir, "update", "editor", "--title", "Editor of choice", "--metadata", `{"y": null, "z": 2}`, "--tags", "ide", "--merge-tags")
	cliOK(t, "--store", dir, "update", "editor", "--status", "superseded")
	cliOK(t, "--store", dir, "delete", "gone")
	cliOK(t, "--store", dir, "session", "start", "--json")
	for i, at := range []string{"2026-01-05T09:00:00Z", "2026-01-05T11:30:00Z", "2026-01-06T08:00:00Z"} {
		cliOK(t, "--store", dir, "observe", "--type", "fact", "--key", "city", "--session", "s1", "--at", at, "--metadata", `{"n": `+string(rune('1'+i))+`}`, "lives in Berlin")
	}
	cliOK(t, "--store", dir, "rollup", "--now", "2026-02-01T00:00:00Z")
	cliOK(t, "--store", dir, "observe", "--type", "scratch", "a secret typed by mistake")
	cliOK(t, "--store", dir, "purge", "--type", "scratch", "--confirm") // an entry in the forget log
	return ids
}

// cliOK runs the CLI in-process and returns its stdout, failing the test
// on a non-zero exit.
func cliOK(t *testing.T, args ...string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	if code := newApp(strings.NewReader(""), &out, &errOut).execute(context.Background(), args); code != 0 {
		t.Fatalf("recall %s: exit %d: %s", strings.Join(redactArgs(args), " "), code, errOut.String())
	}
	return out.String()
}

func redactArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = recall.RedactURL(a)
	}
	return out
}
