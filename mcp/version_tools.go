package mcp

import (
	"bytes"
	"context"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
)

type diffIn struct {
	ID         string `json:"id" jsonschema:"memory id or key"`
	Collection string `json:"collection,omitempty" jsonschema:"collection to look the key up in"`
	From       int    `json:"from" jsonschema:"the older version number (see memory_history)"`
	To         int    `json:"to,omitempty" jsonschema:"the newer version number; default the current one"`
}

type diffOut struct {
	ID   string `json:"id"`
	From int    `json:"from"`
	To   int    `json:"to"`
	Diff string `json:"diff" jsonschema:"unified diff of the fields and the content; empty when the versions are the same"`
}

type restoreIn struct {
	ID         string `json:"id" jsonschema:"memory id or key (a deleted memory by id)"`
	Collection string `json:"collection,omitempty" jsonschema:"collection to look the key up in"`
	Version    int    `json:"version" jsonschema:"the version to bring back, from memory_history"`
}

type importIn struct {
	JSONL string `json:"jsonl" jsonschema:"JSON Lines: one memory object per line, as memory_export returns them; ids are kept, so an existing id gets a new version"`
}

type exportIn struct {
	Limit  int `json:"limit,omitempty" jsonschema:"at most this many memories per page (default 100, at most 500)"`
	Offset int `json:"offset,omitempty" jsonschema:"skip this many, to page: pass next_offset"`
	filterIn
}

type exportOut struct {
	JSONL      string `json:"jsonl" jsonschema:"JSON Lines, one whole memory per line, oldest first within the page"`
	Count      int    `json:"count" jsonschema:"memories in this page"`
	Total      int    `json:"total" jsonschema:"memories matching, ignoring paging"`
	Truncated  bool   `json:"truncated" jsonschema:"true when more memories follow: call again with offset next_offset"`
	NextOffset int    `json:"next_offset,omitempty"`
}

// exportMaxBytes bounds one page of memory_export: a page of long memories
// stops early (and says so) instead of flooding the model's context.
const exportMaxBytes = 1 << 20

func (t *tools) addVersionTools(s *sdk.Server) {
	sdk.AddTool(s, &sdk.Tool{Name: "memory_diff", Annotations: readOnly("Diff two versions"),
		Description: "Show what changed between two versions of a memory (numbers from memory_history) as a unified diff of its fields and content, as `recall diff` does. to defaults to the current version."}, t.diff)
	sdk.AddTool(s, &sdk.Tool{Name: "memory_restore", Annotations: writes("Restore a version", true, false),
		Description: "Bring back a past version of a memory (also of a deleted one, by id): its fields and content become a new current version, as `recall restore` does. The version it replaces stays in memory_history."}, t.restore)
	sdk.AddTool(s, &sdk.Tool{Name: "memory_import", Annotations: writes("Import memories", true, false),
		Description: "Import memories from JSON Lines (one memory object per line, as memory_export returns them) in one transaction, keeping their ids: a new id is added, an existing one gets a new version with the imported fields. Nothing is imported when a line is invalid. Returns how many were added and updated."}, t.importMemories)
	sdk.AddTool(s, &sdk.Tool{Name: "memory_export", Annotations: readOnly("Export memories"),
		Description: "Export memories, whole and with every field, as JSON Lines that memory_import reads back, with the same filters as memory_list. Pages from the most recently changed (limit, offset); truncated and next_offset say when more follow. For a whole store on disk, the user runs `recall export`."}, t.export)
}

func (t *tools) diff(ctx context.Context, _ *sdk.CallToolRequest, in diffIn) (*sdk.CallToolResult, diffOut, error) {
	id, err := t.resolve(ctx, in.ID, in.Collection)
	if err != nil {
		return nil, diffOut{}, t.fail(ctx, "memory_diff", err, findMemoryHint)
	}
	to := in.To
	if to <= 0 {
		vs, err := t.eng.Versions(ctx, id)
		if err != nil {
			return nil, diffOut{}, t.fail(ctx, "memory_diff", err, findMemoryHint)
		}
		if len(vs) > 0 {
			to = vs[len(vs)-1].Version
		}
	}
	d, err := t.eng.Diff(ctx, id, in.From, to)
	if err != nil {
		return nil, diffOut{}, t.fail(ctx, "memory_diff", err, "Call memory_history to list its versions.")
	}
	return nil, diffOut{ID: id, From: in.From, To: to, Diff: string(d)}, nil
}

func (t *tools) restore(ctx context.Context, _ *sdk.CallToolRequest, in restoreIn) (*sdk.CallToolResult, changedOut, error) {
	id, err := t.resolve(ctx, in.ID, in.Collection)
	if err != nil {
		return nil, changedOut{}, t.fail(ctx, "memory_restore", err, findMemoryHint)
	}
	m, err := t.eng.Restore(ctx, id, in.Version)
	if err != nil {
		return nil, changedOut{}, t.fail(ctx, "memory_restore", err, "Call memory_history to list its versions.")
	}
	return nil, changedOut{ID: m.ID, Key: m.Key, Collection: m.Collection, Version: m.Version}, nil
}

func (t *tools) importMemories(ctx context.Context, _ *sdk.CallToolRequest, in importIn) (*sdk.CallToolResult, *recall.ImportResult, error) {
	ms, err := engine.DecodeMemoryLines([]byte(in.JSONL))
	if err == nil && len(ms) == 0 {
		err = recall.Errorf(recall.EINVALID, "jsonl holds no memory: give one JSON object per line.")
	}
	if err != nil {
		return nil, nil, t.fail(ctx, "memory_import", err, "")
	}
	res, err := t.eng.Import(ctx, ms)
	if err != nil {
		return nil, nil, t.fail(ctx, "memory_import", err, "")
	}
	return nil, res, nil
}

func (t *tools) export(ctx context.Context, _ *sdk.CallToolRequest, in exportIn) (*sdk.CallToolResult, exportOut, error) {
	f, err := in.build()
	if err != nil {
		return nil, exportOut{}, t.fail(ctx, "memory_export", err, "")
	}
	f.Offset = max(in.Offset, 0)
	f.Limit = clamp(in.Limit, 100, 500)
	count := f
	count.Offset, count.Limit = 0, 1
	_, total, err := t.eng.List(ctx, count)
	if err != nil {
		return nil, exportOut{}, t.fail(ctx, "memory_export", err, "")
	}
	var buf bytes.Buffer
	if err := t.eng.Export(ctx, f, &buf); err != nil {
		return nil, exportOut{}, t.fail(ctx, "memory_export", err, "")
	}
	lines := bytes.SplitAfter(buf.Bytes(), []byte("\n"))
	if n := len(lines); n > 0 && len(lines[n-1]) == 0 {
		lines = lines[:n-1]
	}
	// The page is oldest first: keep its newest lines (the first of the
	// page in listing order) when it is too long, so next_offset goes on
	// where this page stopped.
	keep, size := 0, 0
	for i := len(lines) - 1; i >= 0 && size+len(lines[i]) <= exportMaxBytes; i-- {
		size += len(lines[i])
		keep++
	}
	if keep == 0 && len(lines) > 0 {
		keep = 1 // one memory always goes, however long
	}
	out := exportOut{JSONL: string(bytes.Join(lines[len(lines)-keep:], nil)), Count: keep, Total: total}
	if next := f.Offset + keep; next < total {
		out.Truncated, out.NextOffset = true, next
	}
	return nil, out, nil
}
