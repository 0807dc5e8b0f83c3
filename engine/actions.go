package engine

import (
	"context"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/maintain"
)

// Applied is one action carried out.
type Applied struct {
	ID     string `json:"id"`
	Action string `json:"action"`
	From   string `json:"from,omitempty"` // the file the entry left
	File   string `json:"file,omitempty"` // the file it is in now
	Tier   string `json:"tier"`
}

// EntryOf finds the managed entry with id.
func (ws *Workspace) EntryOf(id string) (recall.ManagedEntry, bool) {
	for _, e := range ws.Set.Entries() {
		if e.ID == id {
			return e, true
		}
	}
	return recall.ManagedEntry{}, false
}

// applyChoices carries out actions: the entries' lines move between files
// as whole lines (seed 000's editing rules) and the store changes in one
// transaction; nothing is written unless every action is valid. texts
// holds the new text for update actions.
func (e *Engine) applyChoices(ctx context.Context, ws *Workspace, choices []maintain.Choice, o maintain.Options, texts map[string]string) ([]Applied, error) {
	ch := recall.TierChanges{Op: "maintain"}
	var out []Applied
	for _, c := range choices {
		m := ws.Mems[c.ID]
		if m == nil {
			found, err := e.mem.FindMemory(ctx, c.ID, "")
			if err != nil {
				if e, ok := ws.EntryOf(c.ID); ok {
					return nil, recall.Errorf(recall.ENOTFOUND, "Entry ^%s in %s is not in the store yet: run `recall sync` first.", c.ID, e.File)
				}
				return nil, err
			}
			m = found
		}
		opts := o
		opts.Text = texts[c.ID]
		upd, tier, err := maintain.Effect(c.Action, m, opts)
		if err != nil {
			return nil, err
		}
		done := Applied{ID: c.ID, Action: c.Action, Tier: m.Tier}
		if e, ok := ws.EntryOf(c.ID); ok {
			done.From, done.File, done.Tier = e.File, e.File, e.Tier
			rec := recall.SyncRecord{ID: c.ID, File: e.File, Text: e.Text, Tier: e.Tier}
			if upd.Content != nil {
				if err := ws.Set.File(e.File).SetText(c.ID, *upd.Content); err != nil {
					return nil, err
				}
				rec.Text = *upd.Content
			}
			if tier != "" {
				home := ws.Set.HomeOf(tier)
				if _, err := ws.Set.Move(c.ID, home); err != nil {
					return nil, err
				}
				rec.File, rec.Tier = home, tier
				done.File, done.Tier = home, tier
			}
			ch.Records = append(ch.Records, rec)
		} else if tier != "" {
			done.Tier = tier
		}
		if done.From == done.File {
			done.From = ""
		}
		ch.Update = append(ch.Update, recall.MemoryChange{ID: c.ID, Update: upd})
		out = append(out, done)
	}
	if err := e.commit(ctx, ws, ch); err != nil {
		return nil, err
	}
	return out, nil
}
