package engine

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
func (e *Engine) tierStore() recall.TierStore { return e.Store.Tiers() }

// SyncReport is what `recall sync` prints as JSON.
type SyncReport struct {
	Tagged int `json:"tagged"`
	*markdown.SyncResult
	Metadata string `json:"metadata,omitempty"` // "imported" or "written"
}

// SyncPlan is a sync computed but not yet written.
type SyncPlan struct {
	rep       *SyncReport
	in        markdown.SyncInput
	md        markdown.Metadata
	mdExists  bool
	importing bool
}

// Report is what the planned sync would change.
func (sp *SyncPlan) Report() *SyncReport { return sp.rep }

// PlanSync reconciles the workspace's files and the store in memory: it
// tags untagged entries, edits ws.Set and computes the store changes,
// writing nothing.
func (e *Engine) PlanSync(ctx context.Context, ws *Workspace, now time.Time) (*SyncPlan, error) {
	if err := CheckDuplicates(ws.Set, "sync"); err != nil {
		return nil, err
	}
	tagged, err := e.TagUntagged(ctx, ws)
	if err != nil {
		return nil, err
	}
	sp := &SyncPlan{rep: &SyncReport{Tagged: tagged}}
	if sp.md, sp.mdExists, err = markdown.ReadMetadata(ws.Root); err != nil {
		return nil, err
	}
	sp.in = markdown.SyncInput{Set: ws.Set, Memories: ws.Mems, Records: ws.Records, Now: now}
	imported, err := e.tierStore().StoreMeta(ctx, metaImportedKey)
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

// Sync reconciles the workspace's files and the store: files first, then
// one store transaction; if that fails the files are put back. Running it
// again after a crash between the two repairs the difference.
func (e *Engine) Sync(ctx context.Context, ws *Workspace, now time.Time) (*SyncReport, error) {
	sp, err := e.PlanSync(ctx, ws, now)
	if err != nil {
		return nil, err
	}
	if err := e.commit(ctx, ws, sp.rep.Changes); err != nil {
		return nil, err
	}
	if sp.mdExists {
		sp.rep.Metadata = "written"
		if sp.importing {
			sp.rep.Metadata = "imported"
		}
		if _, err := e.writeMetadata(ctx, ws.Root, sp.md); err != nil {
			return nil, err
		}
	}
	return sp.rep, nil
}

// commit writes the changed files, then applies the store changes in one
// transaction, putting the files back if the transaction fails.
func (e *Engine) commit(ctx context.Context, ws *Workspace, ch recall.TierChanges) error {
	undo, err := ws.Set.Write()
	if err != nil {
		return err
	}
	if len(ch.Insert)+len(ch.Update)+len(ch.Records)+len(ch.Drop)+len(ch.Meta) == 0 {
		return nil
	}
	if err := e.tierStore().ApplyTierChanges(ctx, ch); err != nil {
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
func (e *Engine) writeMetadata(ctx context.Context, root string, md markdown.Metadata) (int, error) {
	if md == nil {
		md = markdown.Metadata{}
	}
	ws, err := e.LoadWorkspace(ctx, root)
	if err != nil {
		return 0, err
	}
	ids := map[string]bool{}
	for id := range md {
		ids[id] = true
	}
	for _, e := range ws.Set.Entries() {
		ids[e.ID] = true
	}
	for id := range ids {
		m := ws.Mems[id]
		if m == nil {
			if found, err := e.mem.FindMemory(ctx, id, ""); err == nil {
				m = found
			}
		}
		if m != nil {
			md.SetMemory(m)
		}
	}
	return len(md), md.Write(root)
}
