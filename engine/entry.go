package engine

import (
	"context"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/maintain"
)

// EntryAction carries out one maintenance action (maintain.ActPin,
// ActUnpin, ActSnooze, ActDemote, ActArchive, ActSupersede, ActVerify) on
// the memory ref (an id or a key) in the project at rootFlag: a managed
// entry's line moves between files as seed 000's editing rules say and
// the store changes in one transaction. verb names the action in errors;
// days is the snooze length.
func (e *Engine) EntryAction(ctx context.Context, rootFlag, ref, action, verb string, days int, now time.Time) (Applied, error) {
	ws, err := e.OpenWorkspace(ctx, rootFlag)
	if err != nil {
		return Applied{}, err
	}
	defer ws.Close()
	id := ref
	if !recall.IsID(id) {
		m, err := e.Get(ctx, id, "")
		if err != nil {
			return Applied{}, err
		}
		id = m.ID
	}
	if err := CheckDuplicates(ws.Set, verb); err != nil {
		return Applied{}, err
	}
	opts := maintain.Options{Now: now, SnoozeDays: days}
	if m := ws.Mems[id]; m != nil {
		opts.Hashes, _ = AnchorHashes(ws.Root, []*recall.Memory{m})
	} else if m, err := e.Get(ctx, id, ""); err == nil {
		opts.Hashes, _ = AnchorHashes(ws.Root, []*recall.Memory{m})
	}
	done, err := e.applyChoices(ctx, ws, []maintain.Choice{{ID: id, Action: action}}, opts, nil)
	if err != nil {
		return Applied{}, err
	}
	return done[0], nil
}

// Pin makes a memory core memory: never a pressure candidate, never
// evicted.
func (e *Engine) Pin(ctx context.Context, rootFlag, ref string, now time.Time) (Applied, error) {
	return e.EntryAction(ctx, rootFlag, ref, maintain.ActPin, "pin", 30, now)
}

// Unpin lets maintenance demote a memory again.
func (e *Engine) Unpin(ctx context.Context, rootFlag, ref string, now time.Time) (Applied, error) {
	return e.EntryAction(ctx, rootFlag, ref, maintain.ActUnpin, "unpin", 30, now)
}

// Snooze keeps a memory out of pressure and staleness for days.
func (e *Engine) Snooze(ctx context.Context, rootFlag, ref string, days int, now time.Time) (Applied, error) {
	return e.EntryAction(ctx, rootFlag, ref, maintain.ActSnooze, "snooze", days, now)
}

// Demote moves a working memory to the register inbox.
func (e *Engine) Demote(ctx context.Context, rootFlag, ref string, now time.Time) (Applied, error) {
	return e.EntryAction(ctx, rootFlag, ref, maintain.ActDemote, "demote", 30, now)
}

// Archive moves a memory to the archive.
func (e *Engine) Archive(ctx context.Context, rootFlag, ref string, now time.Time) (Applied, error) {
	return e.EntryAction(ctx, rootFlag, ref, maintain.ActArchive, "archive", 30, now)
}

// Supersede marks a memory superseded; the next maintenance archives it.
func (e *Engine) Supersede(ctx context.Context, rootFlag, ref string, now time.Time) (Applied, error) {
	return e.EntryAction(ctx, rootFlag, ref, maintain.ActSupersede, "supersede", 30, now)
}

// Review marks a memory reviewed now and accepts its anchored files as
// they are.
func (e *Engine) Review(ctx context.Context, rootFlag, ref string, now time.Time) (Applied, error) {
	return e.EntryAction(ctx, rootFlag, ref, maintain.ActVerify, "review", 30, now)
}
