package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/maintain"
	"github.com/recall-mem/recall/markdown"
	"github.com/recall-mem/recall/sqlite"
)

// metaImportedKey marks in the store that metadata.json was imported once.
const metaImportedKey = "tiers.metadata_imported"

// tierStore is the store's bookkeeping for the managed files.
func (a *app) tierStore() *sqlite.TierService { return sqlite.NewTierService(a.db) }

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

// maintainSource gathers the input of a maintenance plan from the files
// and the store; it is what `recall maintain --json` and the MCP tool
// maintain_plan plan on.
type maintainSource struct {
	a    *app
	root string
	now  func() time.Time
}

// Input loads the workspace, refuses as seed 000 does when entries lack ids
// or share one, and collects anchors and daily logs. It changes nothing.
func (s *maintainSource) Input(ctx context.Context) (*maintain.Input, error) {
	ws, err := s.a.loadWorkspace(ctx, s.root)
	if err != nil {
		return nil, err
	}
	if err := checkEntries(ws.set, "maintain"); err != nil {
		return nil, err
	}
	return s.a.previewInput(ctx, ws, s.now().UTC())
}

// previewInput is a plan's input on the reconciled view of the workspace
// (as a sync would leave it), computed without writing anything.
func (a *app) previewInput(ctx context.Context, ws *workspace, now time.Time) (*maintain.Input, error) {
	sp, err := a.planSync(ctx, ws, now)
	if err != nil {
		return nil, err
	}
	ws.mems = markdown.Preview(sp.in, sp.rep.SyncResult)
	return a.planInput(ctx, ws)
}

// planInput builds a plan's input from a loaded workspace.
func (a *app) planInput(ctx context.Context, ws *workspace) (*maintain.Input, error) {
	anchored, err := a.tierStore().AnchoredMemories(ctx)
	if err != nil {
		return nil, err
	}
	in := &maintain.Input{
		Entries: ws.set.Entries(), Memories: ws.mems, Anchored: anchored,
		FileHashes: anchorHashes(ws.root, anchored), Budget: a.cfg.Working.BudgetWords,
	}
	daily, err := filepath.Glob(filepath.Join(ws.root, filepath.FromSlash(markdown.DailyDir), "*.md"))
	if err != nil {
		return nil, err
	}
	for _, p := range daily {
		if rel, err := filepath.Rel(ws.root, p); err == nil {
			in.DailyLogs = append(in.DailyLogs, filepath.ToSlash(rel))
		}
	}
	return in, nil
}

// maintainer plans maintenance of the project at root without changing
// anything; the MCP server's maintain_plan tool calls
// a.maintainer(root, nil, 0, "") once the store is open. A nil clock is the
// wall clock, budget 0 and unit "" mean [working] budget_words in words.
func (a *app) maintainer(root string, now func() time.Time, budget int, unit string) *maintain.Maintainer {
	if now == nil {
		now = a.now
	}
	if budget <= 0 {
		budget = a.cfg.Working.BudgetWords
	}
	return &maintain.Maintainer{Source: &maintainSource{a: a, root: root, now: now}, Now: now, Budget: budget, Unit: unit}
}

// openWorkspace opens the store and loads the managed files of the project
// root (--root, else derived from the store).
func (a *app) openWorkspace(ctx context.Context, rootFlag string) (*workspace, error) {
	if err := a.open(ctx); err != nil {
		return nil, err
	}
	root, err := a.projectRoot(rootFlag)
	if err != nil {
		return nil, err
	}
	return a.loadWorkspace(ctx, root)
}

// anchorHashes hashes every anchored file now; "" marks a file that is gone.
func anchorHashes(root string, ms []*recall.Memory) map[string]string {
	out := map[string]string{}
	for _, m := range ms {
		for _, an := range m.Anchors {
			if _, done := out[an.Path]; !done {
				out[an.Path] = hashFile(filepath.Join(root, filepath.FromSlash(an.Path)))
			}
		}
	}
	return out
}

// hashFile returns the hex SHA-256 of a file, or "" when it cannot be read.
func hashFile(p string) string {
	buf, err := os.ReadFile(p)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(buf)
	return hex.EncodeToString(sum[:])
}

// resolveAnchors turns --anchor paths (relative to the working directory
// or absolute) into anchors relative to the project root with the file's
// current hash. Returns EINVALID for a file that cannot be read or lies
// outside the project.
func (a *app) resolveAnchors(paths []string) ([]recall.Anchor, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	root, err := a.projectRoot("")
	if err != nil {
		return nil, err
	}
	var out []recall.Anchor
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, err
		}
		rel, err := filepath.Rel(root, abs)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return nil, recall.Errorf(recall.EINVALID, "Anchor %s is outside the project root %s: anchor files inside the project.", p, root)
		}
		fi, err := os.Stat(abs)
		if errors.Is(err, fs.ErrNotExist) || (err == nil && !fi.Mode().IsRegular()) {
			return nil, recall.Errorf(recall.EINVALID, "Anchor %s is not a readable file: give the path of a file in the project.", p)
		} else if err != nil {
			return nil, err
		}
		out = append(out, recall.Anchor{Path: filepath.ToSlash(rel), Hash: hashFile(abs)})
	}
	return out, nil
}
