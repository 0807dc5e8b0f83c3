package main

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/httpapi"
)

// recallBinary is the recall command testscript.Main put on $PATH: this
// test binary, which runs main when started under that name.
func recallBinary(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("recall")
	if err != nil {
		t.Fatalf("recall binary not on PATH: %v", err)
	}
	return path
}

// toolCall is one step of the end-to-end script: a tool, its arguments and
// a string its text result must contain.
type toolCall struct {
	name string
	args map[string]any
	want string
}

// e2eCalls calls every tool the binary registers, in an order where each
// step can see what the earlier ones wrote.
var e2eCalls = []toolCall{
	{"memory_put", map[string]any{"content": "Deploys go through staging first.", "title": "Deploy rule", "tags": []string{"ops"}, "type": "decision"}, `"key":"deploy-rule"`},
	{"memory_get", map[string]any{"id": "deploy-rule"}, "staging first"},
	{"memory_search", map[string]any{"query": "how do deploys work", "filter": []string{"tags=ops"}}, `"key":"deploy-rule"`},
	{"memory_list", map[string]any{"type": "decision"}, `"total":1`},
	{"memory_update", map[string]any{"id": "deploy-rule", "content": "Deploys go through staging, then canary."}, `"version":2`},
	{"memory_pin", map[string]any{"id": "deploy-rule"}, `"pinned":true`},
	{"memory_context", map[string]any{"query": "how do deploys work", "budget": 500}, "staging, then canary"},
	{"memory_history", map[string]any{"id": "deploy-rule"}, `"op":"update"`},
	{"memory_diff", map[string]any{"id": "deploy-rule", "from": 1}, "+Deploys go through staging, then canary."},
	{"memory_snooze", map[string]any{"id": "deploy-rule", "days": 7}, `"snoozed_until":"`},
	{"memory_review", map[string]any{"id": "deploy-rule"}, `"reviewed_at":"`},
	{"memory_put", map[string]any{"content": "Scratch note for the entry tools.", "title": "Scratch"}, `"key":"scratch"`},
	{"memory_update", map[string]any{"id": "scratch", "tier": "working"}, `"version":2`},
	{"memory_demote", map[string]any{"id": "scratch"}, `"tier":"register"`},
	{"memory_supersede", map[string]any{"id": "scratch"}, `"status":"superseded"`},
	{"memory_archive", map[string]any{"id": "scratch"}, `"tier":"archive"`},
	{"memory_restore", map[string]any{"id": "deploy-rule", "version": 1}, `"key":"deploy-rule"`},
	{"memory_export", map[string]any{}, "staging first"},
	{"memory_import", map[string]any{"jsonl": `{"id":"tr00000000e2","title":"Imported","content":"Imported over MCP."}`}, `"added":1`},
	{"maintain_sync_plan", map[string]any{}, `"tagged":0`},
	{"maintain_sync", map[string]any{}, `"files":`},
	{"maintain_apply", map[string]any{"recommended": true}, `"applied":`},
	{"memory_delete", map[string]any{"id": "deploy-rule"}, `"deleted":true`},
	{"observation_record", map[string]any{"type": "command_error", "content": "panic: nil map", "session": "s1"}, `"id":1`},
	{"observation_search", map[string]any{"query": "nil map"}, `"total":1`},
	{"observation_timeline", map[string]any{"session": "s1"}, "command_error"},
	{"rollup_run", map[string]any{"dry_run": true}, `"dry_run":true`},
	{"store_tiers", map[string]any{}, `"tier":"raw"`},
	{"store_purge_plan", map[string]any{"search": "nil map"}, `"observations":1`},
	{"store_purge", map[string]any{"search": "nil map", "confirm": true}, `"observations":1`},
	{"store_sweep", map[string]any{"dry_run": true}, `"dry_run":true`},
	{"store_stats", map[string]any{}, `"memories":`},
	{"store_reindex_status", map[string]any{}, `"model":`},
	{"store_doctor", map[string]any{}, `"checks":`},
	{"store_backup", map[string]any{}, `"path":`},
	{"maintain_plan", map[string]any{}, `"working_words"`},
	{"session_start", map[string]any{"id": "e2e-1", "project": "demo"}, `"id":"e2e-1"`},
	{"session_end", map[string]any{"id": "e2e-1", "summary": "Checked every tool."}, `"id":"e2e-1"`},
	{"session_list", map[string]any{}, `"id":"e2e-1"`},
}

// runE2E lists the tools, checks that the script covers every one, and runs it.
func runE2E(t *testing.T, cs *sdk.ClientSession) {
	t.Helper()
	ctx := context.Background()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	covered := map[string]bool{}
	for _, c := range e2eCalls {
		covered[c.name] = true
	}
	for _, tool := range tools.Tools {
		if !covered[tool.Name] {
			t.Errorf("tool %s is not exercised end to end", tool.Name)
		}
	}
	if len(tools.Tools) != len(covered) {
		t.Errorf("%d tools registered, the script covers %d", len(tools.Tools), len(covered))
	}
	for _, c := range e2eCalls {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: c.name, Arguments: c.args})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var text strings.Builder
		for _, content := range res.Content {
			if tc, ok := content.(*sdk.TextContent); ok {
				text.WriteString(tc.Text)
			}
		}
		if res.IsError || !strings.Contains(text.String(), c.want) {
			t.Fatalf("%s: isError=%v %s; want %s", c.name, res.IsError, text.String(), c.want)
		}
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "memory_get", Arguments: map[string]any{"id": "deploy-rule"}})
	if err != nil || !res.IsError {
		t.Fatalf("get after delete: %v %+v", err, res)
	}
}

func TestMCPStdio_EndToEnd(t *testing.T) {
	ctx := context.Background()
	cmd := exec.Command(recallBinary(t), "--store", filepath.Join(t.TempDir(), "store"), "mcp")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "e2e", Version: "1"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	runE2E(t, cs)
	if err := cs.Close(); err != nil {
		t.Fatalf("close: %v (stderr: %s)", err, stderr.String())
	}
	if strings.Contains(stderr.String(), "level=ERROR") {
		t.Fatalf("server logged errors: %s", stderr.String())
	}
}

// startServe runs `recall serve` on a free loopback port and returns its
// base URL and the running command.
func startServe(t *testing.T, store string, extra ...string) (string, *exec.Cmd) {
	t.Helper()
	base, _, cmd := startServeLine(t, store, extra...)
	return base, cmd
}

// startServeLine is startServe that also returns the line announcing the
// address.
func startServeLine(t *testing.T, store string, extra ...string) (base, line string, cmd *exec.Cmd) {
	t.Helper()
	cmd = exec.Command(recallBinary(t), append([]string{"--store", store, "serve", "--addr", "127.0.0.1:0"}, extra...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	lines := bufio.NewScanner(stderr)
	addrRE := regexp.MustCompile(`on (http://127\.0\.0\.1:\d+) `)
	for lines.Scan() {
		if m := addrRE.FindStringSubmatch(lines.Text()); m != nil {
			line = lines.Text()
			go func() { // keep draining so the server never blocks on stderr
				for lines.Scan() {
				}
			}()
			return m[1], line, cmd
		}
	}
	t.Fatal("recall serve exited without announcing its address")
	return "", "", nil
}

func TestServe_EndToEnd(t *testing.T) {
	ctx := context.Background()
	store := filepath.Join(t.TempDir(), "store")
	base, cmd := startServe(t, store, "--token", "tok")

	t.Run("REST", func(t *testing.T) {
		c := httpapi.NewClient(base, "tok")
		if _, err := c.PutMemory(ctx, &recall.Memory{Key: "editor", Content: "The user edits in Helix."}); err != nil {
			t.Fatal(err)
		}
		hits, err := c.Search(ctx, recall.SearchQuery{Text: "helix"})
		if err != nil || len(hits) != 1 {
			t.Fatalf("hits %v err %v", hits, err)
		}
		_, err = httpapi.NewClient(base, "").FindMemory(ctx, "editor", "")
		if recall.ErrorCode(err) != recall.EUNAUTHORIZED {
			t.Fatalf("without the token: %v", err)
		}
	})
	t.Run("MCP", func(t *testing.T) {
		transport := &sdk.StreamableClientTransport{Endpoint: base + "/mcp", HTTPClient: bearer("tok"), DisableStandaloneSSE: true}
		cs, err := sdk.NewClient(&sdk.Implementation{Name: "e2e-http", Version: "1"}, nil).Connect(ctx, transport, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		runE2E(t, cs)
	})
	t.Run("SIGTERMStopsCleanly", func(t *testing.T) {
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("exit: %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Fatal("recall serve did not stop after SIGTERM")
		}
		out, err := exec.Command(recallBinary(t), "--store", store, "get", "editor", "--json").Output()
		var m recall.Memory
		if err != nil || json.Unmarshal(out, &m) != nil || m.Content != "The user edits in Helix." {
			t.Fatalf("the store after shutdown: %s %v", out, err)
		}
	})
}

// bearer returns an HTTP client that sends the token on every request.
func bearer(token string) *http.Client {
	return &http.Client{Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
		r = r.Clone(r.Context())
		r.Header.Set("Authorization", "Bearer "+token)
		return http.DefaultTransport.RoundTrip(r)
	})}
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
