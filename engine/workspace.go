package engine

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

// ProjectRoot is where the managed files live: --root when given, else the
// parent of a project store's .recall/ directory, else the working
// directory.
func (e *Engine) ProjectRoot(flag string) (string, error) {
	if flag != "" {
		return filepath.Abs(flag)
	}
	loc := e.Location
	if loc == nil {
		var err error
		if loc, err = ResolveStore(e.StoreFlag, e.GlobalFlag); err != nil {
			return "", err
		}
	}
	if filepath.Base(loc.Dir) == ProjectDir && loc.Kind != "global" {
		return filepath.Dir(loc.Dir), nil
	}
	return os.Getwd()
}

// Workspace is the managed files of a project with the store's view of
// their entries.
type Workspace struct {
	Root    string
	Set     *markdown.Set
	Records map[string]recall.SyncRecord
	Mems    map[string]*recall.Memory // entries' and records' ids, and active working memories
	unlock  func()                    // releases the project lock taken by OpenWorkspace
}

// LockWait is how long a command waits for another one editing the same
// project's files.
const LockWait = 10 * time.Second

// Close releases the workspace's lock.
func (ws *Workspace) Close() {
	if ws != nil && ws.unlock != nil {
		ws.unlock()
		ws.unlock = nil
	}
}

// LoadWorkspace reads the managed files under root and the memories they
// name.
func (e *Engine) LoadWorkspace(ctx context.Context, root string) (*Workspace, error) {
	set, err := markdown.Load(root, e.Config.Working.File)
	if err != nil {
		return nil, err
	}
	recs, err := e.tierStore().SyncRecords(ctx)
	if err != nil {
		return nil, err
	}
	ws := &Workspace{Root: root, Set: set, Records: recs, Mems: map[string]*recall.Memory{}}
	var ids []string
	for _, e := range set.Entries() {
		ids = append(ids, e.ID)
	}
	for id := range recs {
		ids = append(ids, id)
	}
	if err := e.memoriesByID(ctx, ids, func(m *recall.Memory) { ws.Mems[m.ID] = m }); err != nil {
		return nil, err
	}
	working := recall.TierWorking
	ms, _, err := e.mem.FindMemories(ctx, recall.MemoryFilter{Tier: &working})
	if err != nil {
		return nil, err
	}
	for _, m := range ms {
		ws.Mems[m.ID] = m
	}
	return ws, nil
}

// CheckEntries refuses to go on when an entry has no id or an id is on
// several entries, with seed 000's texts.
func CheckEntries(set *markdown.Set, verb string) error {
	if missing := set.Untagged(); len(missing) > 0 {
		return recall.Errorf(recall.ECONFLICT, "Cannot run %s: %d entries are missing IDs.\nRun `recall init-ids` first to tag all entries.", verb, len(missing))
	}
	return CheckDuplicates(set, verb)
}

// CheckDuplicates refuses duplicate ids, listing every location.
func CheckDuplicates(set *markdown.Set, verb string) error {
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

// newID draws the id of an untagged entry; a test makes it return a
// stored memory's id.
var newID = recall.NewID

// tagDraws bounds the rounds of drawing ids for untagged entries that
// find one already stored.
const tagDraws = 10

// TagUntagged gives every entry of ws without an id a new one, in memory.
// A drawn id names nothing yet: no entry or sync record, and no memory
// the store has a version of (any status, deleted ones included, whose
// history stays), or the entry would take that memory over at the next
// sync. An id the user wrote on a line is theirs, an edit of the memory
// it names. The caller holds the workspace's lock.
func (e *Engine) TagUntagged(ctx context.Context, ws *Workspace) (int, error) {
	taken := map[string]bool{}
	for _, en := range ws.Set.Entries() {
		taken[en.ID] = true
	}
	for id := range ws.Records {
		taken[id] = true
	}
	for id := range ws.Mems {
		taken[id] = true
	}
	draw := func() string {
		id := newID()
		for taken[id] {
			id = newID()
		}
		taken[id] = true
		return id
	}
	missing := ws.Set.Untagged()
	drawn := make([]string, len(missing))
	for i := range drawn {
		drawn[i] = draw()
	}
	check := drawn
	for round := 1; len(check) > 0; round++ {
		stored, err := e.withHistory(ctx, check)
		if err != nil {
			return 0, err
		}
		if len(stored) > 0 && round == tagDraws {
			return 0, recall.Errorf(recall.ECONFLICT, "Could not draw a free id for %d entries: run the command again.", len(stored))
		}
		check = nil
		for i, id := range drawn {
			if stored[id] {
				drawn[i] = draw()
				check = append(check, drawn[i])
			}
		}
	}
	for i, loc := range missing {
		ws.Set.File(loc.File).Tag(loc.Line, drawn[i])
	}
	return len(missing), nil
}

// withHistory is the ids the store has a version of: every memory, live
// or deleted (whose history stays), has one from its first write.
// Untagged entries are few, so each is asked alone.
func (e *Engine) withHistory(ctx context.Context, ids []string) (map[string]bool, error) {
	stored := map[string]bool{}
	for _, id := range ids {
		vs, err := e.mem.MemoryVersions(ctx, id)
		switch {
		case recall.ErrorCode(err) == recall.ENOTFOUND:
		case err != nil:
			return nil, err
		case len(vs) > 0:
			stored[id] = true
		}
	}
	return stored, nil
}

// memoriesByID calls found with each memory of any status whose id is
// one of ids, asking the store 500 ids at a time.
func (e *Engine) memoriesByID(ctx context.Context, ids []string, found func(*recall.Memory)) error {
	anyStatus := "*"
	for len(ids) > 0 {
		n := min(len(ids), 500)
		ms, _, err := e.mem.FindMemories(ctx, recall.MemoryFilter{Status: &anyStatus, Fields: map[string][]string{"id": ids[:n]}})
		if err != nil {
			return err
		}
		for _, m := range ms {
			found(m)
		}
		ids = ids[n:]
	}
	return nil
}

// OpenWorkspace opens the store and loads the managed files of the project
// root (--root, else derived from the store).
func (e *Engine) OpenWorkspace(ctx context.Context, rootFlag string) (*Workspace, error) {
	if err := e.OpenForWrite(ctx); err != nil {
		return nil, err
	}
	root, err := e.ProjectRoot(rootFlag)
	if err != nil {
		return nil, err
	}
	// One lock per store: a project's files are edited under it from the
	// first read to the last write, so that concurrent syncs cannot both
	// append the same entry.
	unlock, err := LockFile(ctx, filepath.Join(e.Location.Dir, "tiers.lock"), LockWait)
	if err != nil {
		return nil, err
	}
	ws, err := e.LoadWorkspace(ctx, root)
	if err != nil {
		unlock()
		return nil, err
	}
	ws.unlock = unlock
	return ws, nil
}
