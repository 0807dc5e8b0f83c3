package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/markdown"
)

// metaImportedKey marks in the store that metadata.json was imported once.
const metaImportedKey = "tiers.metadata_imported"

// tierStore is the store's bookkeeping for the managed files.
func (a *app) tierStore() recall.TierStore { return a.st.Tiers() }

// syncReport is what `recall sync` prints as JSON.
type syncReport struct {
	Tagged int `json:"tagged"`
	*markdown.SyncResult
	Metadata string `json:"metadata,omitempty"` // "imported" or "written"
}

// syncPlan is a sync computed but not yet written.
type syncPlan struct {
	rep       *syncReport
	in        markdown.SyncInput
	md        markdown.Metadata
	mdExists  bool
	importing bool
}

// planSync reconciles the workspace's files and the store in memory: it
// tags untagged entries, edits ws.set and computes the store changes,
// writing nothing.
func (a *app) planSync(ctx context.Context, ws *workspace, now time.Time) (*syncPlan, error) {
	if err := checkDuplicates(ws.set, "sync"); err != nil {
		return nil, err
	}
	sp := &syncPlan{rep: &syncReport{Tagged: tagUntagged(ws.set)}}
	var err error
	if sp.md, sp.mdExists, err = markdown.ReadMetadata(ws.root); err != nil {
		return nil, err
	}
	sp.in = markdown.SyncInput{Set: ws.set, Memories: ws.mems, Records: ws.records, Now: now}
	imported, err := a.tierStore().StoreMeta(ctx, metaImportedKey)
	if err != nil {
		return nil, err
	}
	sp.importing = sp.mdExists && imported == ""
	if sp.importing {
		sp.in.Metadata = sp.md
	}
	sp.rep.SyncResult = markdown.Sync(sp.in)
	if sp.importing {
		sp.rep.Changes.Meta = map[string]string{metaImportedKey: now.UTC().Format(time.RFC3339)}
	}
	return sp, nil
}

// sync reconciles the workspace's files and the store: files first, then
// one store transaction; if that fails the files are put back. Running it
// again after a crash between the two repairs the difference.
func (a *app) sync(ctx context.Context, ws *workspace, now time.Time) (*syncReport, error) {
	sp, err := a.planSync(ctx, ws, now)
	if err != nil {
		return nil, err
	}
	if err := a.commit(ctx, ws, sp.rep.Changes); err != nil {
		return nil, err
	}
	if sp.mdExists {
		sp.rep.Metadata = "written"
		if sp.importing {
			sp.rep.Metadata = "imported"
		}
		if _, err := a.writeMetadata(ctx, ws.root, sp.md); err != nil {
			return nil, err
		}
	}
	return sp.rep, nil
}

// commit writes the changed files, then applies the store changes in one
// transaction, putting the files back if the transaction fails.
func (a *app) commit(ctx context.Context, ws *workspace, ch recall.TierChanges) error {
	undo, err := ws.set.Write()
	if err != nil {
		return err
	}
	if len(ch.Insert)+len(ch.Update)+len(ch.Records)+len(ch.Drop)+len(ch.Meta) == 0 {
		return nil
	}
	if err := a.tierStore().ApplyTierChanges(ctx, ch); err != nil {
		if uerr := undo(); uerr != nil {
			return errors.Join(err, fmt.Errorf("restore files (run `recall sync` to repair): %w", uerr))
		}
		return err
	}
	return nil
}

// writeMetadata rewrites metadata.json from the store for every id it
// holds and every managed entry, keeping fields recall does not know. It
// returns the number of entries.
func (a *app) writeMetadata(ctx context.Context, root string, md markdown.Metadata) (int, error) {
	if md == nil {
		md = markdown.Metadata{}
	}
	ws, err := a.loadWorkspace(ctx, root)
	if err != nil {
		return 0, err
	}
	ids := map[string]bool{}
	for id := range md {
		ids[id] = true
	}
	for _, e := range ws.set.Entries() {
		ids[e.ID] = true
	}
	for id := range ids {
		m := ws.mems[id]
		if m == nil {
			if found, err := a.mem.FindMemory(ctx, id, ""); err == nil {
				m = found
			}
		}
		if m != nil {
			md.SetMemory(m)
		}
	}
	return len(md), md.Write(root)
}
