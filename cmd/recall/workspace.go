package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/maintain"
	"github.com/recall-mem/recall/markdown"
)

// projectRoot is where the managed files live: --root when given, else the
// parent of a project store's .recall/ directory, else the working
// directory.
func (a *app) projectRoot(flag string) (string, error) {
	if flag != "" {
		return filepath.Abs(flag)
	}
	loc := a.store
	if loc == nil {
		var err error
		if loc, err = resolveStore(a.storeFlag, a.globalFlag); err != nil {
			return "", err
		}
	}
	if filepath.Base(loc.Dir) == projectDir && loc.Kind != "global" {
		return filepath.Dir(loc.Dir), nil
	}
	return os.Getwd()
}

// workspace is the managed files of a project with the store's view of
// their entries.
type workspace struct {
	root    string
	set     *markdown.Set
	records map[string]recall.SyncRecord
	mems    map[string]*recall.Memory // entries' and records' ids, and active working memories
	unlock  func()                    // releases the project lock taken by openWorkspace
}

// lockWait is how long a command waits for another one editing the same
// project's files.
const lockWait = 10 * time.Second

// close releases the workspace's lock.
func (ws *workspace) close() {
	if ws != nil && ws.unlock != nil {
		ws.unlock()
		ws.unlock = nil
	}
}

// loadWorkspace reads the managed files under root and the memories they
// name.
func (a *app) loadWorkspace(ctx context.Context, root string) (*workspace, error) {
	set, err := markdown.Load(root, a.cfg.Working.File)
	if err != nil {
		return nil, err
	}
	recs, err := a.tierStore().SyncRecords(ctx)
	if err != nil {
		return nil, err
	}
	ws := &workspace{root: root, set: set, records: recs, mems: map[string]*recall.Memory{}}
	var ids []string
	for _, e := range set.Entries() {
		ids = append(ids, e.ID)
	}
	for id := range recs {
		ids = append(ids, id)
	}
	anyStatus := "*"
	for len(ids) > 0 {
		n := min(len(ids), 500)
		ms, _, err := a.mem.FindMemories(ctx, recall.MemoryFilter{Status: &anyStatus, Fields: map[string][]string{"id": ids[:n]}})
		if err != nil {
			return nil, err
		}
		for _, m := range ms {
			ws.mems[m.ID] = m
		}
		ids = ids[n:]
	}
	working := recall.TierWorking
	ms, _, err := a.mem.FindMemories(ctx, recall.MemoryFilter{Tier: &working})
	if err != nil {
		return nil, err
	}
	for _, m := range ms {
		ws.mems[m.ID] = m
	}
	return ws, nil
}

// checkEntries refuses to go on when an entry has no id or an id is on
// several entries, with seed 000's texts.
func checkEntries(set *markdown.Set, verb string) error {
	if missing := set.Untagged(); len(missing) > 0 {
		return recall.Errorf(recall.ECONFLICT, "Cannot run %s: %d entries are missing IDs.\nRun `recall init-ids` first to tag all entries.", verb, len(missing))
	}
	return checkDuplicates(set, verb)
}

// checkDuplicates refuses duplicate ids, listing every location.
func checkDuplicates(set *markdown.Set, verb string) error {
	ids, where := set.Duplicates()
	if len(ids) == 0 {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Cannot run %s: duplicate ID found.\n", verb)
	for _, id := range ids {
		fmt.Fprintf(&b, "ID: ^%s\n", id)
		for i, loc := range where[id] {
			fmt.Fprintf(&b, "  %d. %s line %d\n", i+1, maintain.Display(loc.File), loc.Line)
		}
	}
	fmt.Fprintf(&b, "Resolve manually before running %s.", verb)
	return recall.Errorf(recall.ECONFLICT, "%s", b.String())
}

// tagUntagged gives every entry without an id a new one, in memory.
func tagUntagged(set *markdown.Set) int {
	taken := map[string]bool{}
	for _, e := range set.Entries() {
		taken[e.ID] = true
	}
	missing := set.Untagged()
	for _, loc := range missing {
		id := recall.NewID()
		for taken[id] {
			id = recall.NewID()
		}
		taken[id] = true
		set.File(loc.File).Tag(loc.Line, id)
	}
	return len(missing)
}

// openWorkspace opens the store and loads the managed files of the project
// root (--root, else derived from the store).
func (a *app) openWorkspace(ctx context.Context, rootFlag string) (*workspace, error) {
	if err := a.openForWrite(ctx); err != nil {
		return nil, err
	}
	root, err := a.projectRoot(rootFlag)
	if err != nil {
		return nil, err
	}
	// One lock per store: a project's files are edited under it from the
	// first read to the last write, so that concurrent syncs cannot both
	// append the same entry.
	unlock, err := lockFile(ctx, filepath.Join(a.store.Dir, "tiers.lock"), lockWait)
	if err != nil {
		return nil, err
	}
	ws, err := a.loadWorkspace(ctx, root)
	if err != nil {
		unlock()
		return nil, err
	}
	ws.unlock = unlock
	return ws, nil
}
