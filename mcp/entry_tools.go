package mcp

import (
	"context"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
)

type pinIn struct {
	ID         string `json:"id" jsonschema:"memory id or key"`
	Collection string `json:"collection,omitempty" jsonschema:"collection to look the key up in"`
	Pinned     *bool  `json:"pinned,omitempty" jsonschema:"true (default) pins as core memory, false unpins"`
}

type snoozeIn struct {
	ID         string `json:"id" jsonschema:"memory id or key"`
	Collection string `json:"collection,omitempty" jsonschema:"collection to look the key up in"`
	Days       int    `json:"days,omitempty" jsonschema:"how many days the snooze lasts (default 30)"`
}

// entryOut is a memory after a maintenance action: where its line is now
// and the fields the action sets.
type entryOut struct {
	ID           string `json:"id"`
	Action       string `json:"action" jsonschema:"the action carried out: pin, unpin, snooze, demote, archive, supersede or verify"`
	Tier         string `json:"tier"`
	File         string `json:"file,omitempty" jsonschema:"the managed file that holds its line now, when it has one"`
	From         string `json:"from,omitempty" jsonschema:"the file its line left, when it moved"`
	Status       string `json:"status"`
	Pinned       bool   `json:"pinned"`
	SnoozedUntil string `json:"snoozed_until,omitempty"`
	ReviewedAt   string `json:"reviewed_at,omitempty"`
	Version      int    `json:"version"`
}

// entryAction is a maintenance action on one memory; "" roots it in the
// store's project, as the CLI does without --root.
type entryAction func(ctx context.Context, rootFlag, id string, now time.Time) (engine.Applied, error)

func (t *tools) addEntryTools(s *sdk.Server) {
	sdk.AddTool(s, &sdk.Tool{Name: "memory_pin", Annotations: writes("Pin a memory", false, true),
		Description: "Pin a memory as core memory: always included in context and never evicted or demoted. Pinned titles are unique. Pass pinned false to unpin. It is the action of `recall pin` and `recall unpin`: the store and the project's managed markdown files change together, under the project lock."}, t.pin)
	sdk.AddTool(s, &sdk.Tool{Name: "memory_snooze", Annotations: writes("Snooze a memory", false, true),
		Description: "Snooze a memory for days (default 30): maintenance leaves it out of working-memory pressure and staleness checks until then, as `recall snooze` does. Returns snoozed_until."}, t.snooze)
	t.addEntryTool(s, "memory_demote", "Demote a memory",
		"Demote a working memory to the register inbox (memory/registers/_inbox.md), out of the working set that is always in context, as `recall demote` does. It stays searchable.", t.eng.Demote)
	t.addEntryTool(s, "memory_archive", "Archive a memory",
		"Move a memory to the archive (memory/archive/ARCHIVE.md), as `recall archive` does: out of context and working memory, still searchable and restorable.", t.eng.Archive)
	t.addEntryTool(s, "memory_supersede", "Supersede a memory",
		"Mark a memory superseded by newer knowledge, as `recall supersede` does: search ranks it down and the next maintenance archives it. Prefer this to deleting outdated facts.", t.eng.Supersede)
	t.addEntryTool(s, "memory_review", "Mark a memory reviewed",
		"Mark a memory reviewed now, as `recall review` does: it is no longer stale, and the files it is anchored to are accepted as they are. Call after checking that it is still true.", t.eng.Review)
}

// addEntryTool registers a tool that carries out act on one memory.
func (t *tools) addEntryTool(s *sdk.Server, name, title, desc string, act entryAction) {
	sdk.AddTool(s, &sdk.Tool{Name: name, Annotations: writes(title, false, true), Description: desc},
		func(ctx context.Context, _ *sdk.CallToolRequest, in refIn) (*sdk.CallToolResult, entryOut, error) {
			out, err := t.entry(ctx, in.ID, in.Collection, act)
			if err != nil {
				return nil, entryOut{}, t.fail(ctx, name, err, findMemoryHint)
			}
			return nil, out, nil
		})
}

// entry resolves ref, carries out act and reads the memory back.
func (t *tools) entry(ctx context.Context, ref, collection string, act entryAction) (entryOut, error) {
	id, err := t.resolve(ctx, ref, collection)
	if err != nil {
		return entryOut{}, err
	}
	done, err := act(ctx, "", id, t.now())
	if err != nil {
		return entryOut{}, err
	}
	m, err := t.eng.Get(ctx, id, "")
	if err != nil {
		return entryOut{}, err
	}
	out := entryOut{ID: m.ID, Action: done.Action, Tier: m.Tier, File: done.File, From: done.From, Status: m.Status, Pinned: m.Pinned, Version: m.Version}
	if m.SnoozedUntil != nil {
		out.SnoozedUntil = stamp(*m.SnoozedUntil)
	}
	if m.ReviewedAt != nil {
		out.ReviewedAt = stamp(*m.ReviewedAt)
	}
	return out, nil
}

func (t *tools) pin(ctx context.Context, _ *sdk.CallToolRequest, in pinIn) (*sdk.CallToolResult, entryOut, error) {
	act := t.eng.Pin
	if in.Pinned != nil && !*in.Pinned {
		act = t.eng.Unpin
	}
	out, err := t.entry(ctx, in.ID, in.Collection, act)
	if err != nil {
		return nil, entryOut{}, t.fail(ctx, "memory_pin", err, findMemoryHint)
	}
	return nil, out, nil
}

func (t *tools) snooze(ctx context.Context, _ *sdk.CallToolRequest, in snoozeIn) (*sdk.CallToolResult, entryOut, error) {
	days := in.Days
	if days <= 0 {
		days = recall.DefaultSnoozeDays
	}
	out, err := t.entry(ctx, in.ID, in.Collection, func(ctx context.Context, root, id string, now time.Time) (engine.Applied, error) {
		return t.eng.Snooze(ctx, root, id, days, now)
	})
	if err != nil {
		return nil, entryOut{}, t.fail(ctx, "memory_snooze", err, findMemoryHint)
	}
	return nil, out, nil
}
