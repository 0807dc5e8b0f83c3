package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/recall-mem/recall/httpapi"
)

// parityGaps are the cells of the capability table in docs/servers.md that
// hold "—": capabilities an interface does not offer yet, as
// "capability/interface". TestParity fails when a gap is missing from this
// list and when an entry here is no longer a gap, so the list only
// shrinks; once every interface reaches every capability it is empty and
// no "—" may come back.
var parityGaps = []string{}

// parityRow is one line of the capability table; a nil cell is "—".
type parityRow struct {
	capability string
	cli        []string // commands with their flags, without "recall "
	mcp        []string // tool names
	rest       []string // "METHOD /path"
}

// readParityTable parses the table under "## Capability parity".
func readParityTable(t *testing.T, path string) []parityRow {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n## Capability parity\n")
	if !ok {
		t.Fatalf("%s has no \"## Capability parity\" section", path)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var rows []parityRow
	for line := range strings.SplitSeq(section, "\n") {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| capability ") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cells) != 4 {
			t.Fatalf("table row %q has %d cells, want 4", line, len(cells))
		}
		row := parityRow{capability: cells[0]}
		for i, dst := range []*[]string{&row.cli, &row.mcp, &row.rest} {
			*dst = codeSpans(t, cells[i+1])
		}
		for i, c := range row.cli {
			cmd, ok := strings.CutPrefix(c, "recall ")
			if !ok {
				t.Fatalf("row %q: CLI cell %q does not start with recall", row.capability, c)
			}
			row.cli[i] = cmd
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		t.Fatalf("%s: the capability table is empty", path)
	}
	return rows
}

// codeSpans returns the `code` items of a cell, nil for "—".
func codeSpans(t *testing.T, cell string) []string {
	t.Helper()
	if cell == "—" {
		return nil
	}
	var out []string
	for item := range strings.SplitSeq(cell, ", ") {
		if len(item) < 3 || item[0] != '`' || item[len(item)-1] != '`' {
			t.Fatalf("cell %q: write each item as `code`, separated by \", \", or — for a gap", cell)
		}
		out = append(out, item[1:len(item)-1])
	}
	return out
}

// TestParity walks the capability table of docs/servers.md against the
// CLI's command tree and a live `recall serve` (REST and MCP).
func TestParity(t *testing.T) {
	ctx := context.Background()
	rows := readParityTable(t, filepath.Join("..", "..", "docs", "servers.md"))
	base, _ := startServe(t, filepath.Join(t.TempDir(), "store"), "--token", "tok")
	client := bearer("tok")

	cs, err := sdk.NewClient(&sdk.Implementation{Name: "parity", Version: "1"}, nil).Connect(ctx,
		&sdk.StreamableClientTransport{Endpoint: base + "/mcp", HTTPClient: client, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	listed, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]bool{}
	for _, tool := range listed.Tools {
		tools[tool.Name] = true
	}

	// A memory and a key to stand in for {id} in the routes.
	if status, body := restProbe(t, client, http.MethodPost, base+"/v1/memories", `{"key":"parity","content":"The parity check wrote this."}`); status != http.StatusCreated {
		t.Fatalf("put: %d %s", status, body)
	}

	root := newApp(nil, io.Discard, io.Discard).rootCommand()
	var gaps []string
	inTable := map[string]bool{}
	for _, row := range rows {
		for iface, cell := range map[string][]string{"CLI": row.cli, "MCP": row.mcp, "REST": row.rest} {
			if cell == nil {
				gaps = append(gaps, row.capability+"/"+iface)
			}
			for _, item := range cell {
				inTable[iface+" "+item] = true
			}
		}
		for _, line := range row.cli {
			if err := findCommand(root, line); err != "" {
				t.Errorf("%s: CLI `recall %s`: %s", row.capability, line, err)
			}
		}
		for _, tool := range row.mcp {
			if !tools[tool] {
				t.Errorf("%s: MCP tool %s is not listed by the server", row.capability, tool)
			}
		}
		for _, route := range row.rest {
			method, path, ok := strings.Cut(route, " ")
			if !ok {
				t.Fatalf("%s: REST route %q: write METHOD /path", row.capability, route)
			}
			body := ""
			if method == http.MethodPost || method == http.MethodPatch {
				body = "{}"
			}
			status, answer := restProbe(t, client, method, base+strings.ReplaceAll(path, "{id}", "parity"), body)
			if status == http.StatusMethodNotAllowed || status == http.StatusNotImplemented ||
				status == http.StatusNotFound && strings.Contains(answer, "No route") {
				t.Errorf("%s: REST %s answers %d: %s", row.capability, route, status, answer)
			}
		}
	}

	// Everything the servers offer is in the table.
	for name := range tools {
		if !inTable["MCP "+name] {
			t.Errorf("MCP tool %s is not in the capability table of docs/servers.md", name)
		}
	}
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(httpapi.OpenAPI(), &doc); err != nil {
		t.Fatal(err)
	}
	plumbing := map[string]bool{"GET /v1/healthz": true, "GET /v1/openapi.json": true, "GET /v1/version": true} // about the server, not capabilities
	for path, item := range doc.Paths {
		for method := range item {
			route := strings.ToUpper(method) + " " + path
			if !plumbing[route] && !inTable["REST "+route] {
				t.Errorf("REST route %s is not in the capability table of docs/servers.md", route)
			}
		}
	}

	// 1: a gap in the table, 2: listed in parityGaps; both is as it should be.
	seen := map[string]int{}
	for _, g := range gaps {
		seen[g] |= 1
	}
	for _, g := range parityGaps {
		seen[g] |= 2
	}
	for g, where := range seen {
		switch where {
		case 1:
			t.Errorf("new gap %s: offer the capability there, or add it to parityGaps if that is deliberate", g)
		case 2:
			t.Errorf("parityGaps lists %s, which is no longer a gap: delete it", g)
		}
	}
	sort.Strings(gaps)
	t.Logf("capability table: %d rows, %d gaps (—): %s", len(rows), len(gaps), strings.Join(gaps, ", "))
}

// findCommand checks that line ("maintain --apply") names a command of
// root, with every flag it shows; it returns what is wrong, or "".
func findCommand(root *cobra.Command, line string) string {
	var words, flags []string
	for w := range strings.FieldsSeq(line) {
		if name, ok := strings.CutPrefix(w, "--"); ok {
			flags = append(flags, name)
		} else {
			words = append(words, w)
		}
	}
	c, rest, err := root.Find(words)
	if err != nil {
		return err.Error()
	}
	if len(rest) > 0 || c.CommandPath() != "recall "+strings.Join(words, " ") {
		return "no such command (found " + c.CommandPath() + ")"
	}
	for _, f := range flags {
		if c.Flags().Lookup(f) == nil && c.InheritedFlags().Lookup(f) == nil {
			return "no flag --" + f
		}
	}
	return ""
}

// restProbe sends one request and returns the status and the body.
func restProbe(t *testing.T, client *http.Client, method, url, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}
