package markdown

import (
	"sort"
	"strings"
	"time"

	"github.com/recall-mem/recall"
)

// SyncInput is what a sync reconciles: the files, the store's memories
// (every id found in a file or a sync record, and every active working
// memory), the sync records, the clock, and seed 000's metadata.json when
// it is to be imported.
type SyncInput struct {
	Set      *Set
	Memories map[string]*recall.Memory
	Records  map[string]recall.SyncRecord
	Metadata Metadata // nil: nothing to import
	Now      time.Time
}

// SyncResult says what a sync does: the store changes (one transaction)
// and, by id, what happened; the Set holds the file edits.
type SyncResult struct {
	Changes  recall.TierChanges `json:"-"`
	Added    []string           `json:"added"`    // new in a file: added to the store
	Edited   []string           `json:"edited"`   // edited in a file: a new version in the store
	Retiered []string           `json:"retiered"` // moved between files: tier changed in the store
	Rendered []string           `json:"rendered"` // changed in the store: line rewritten in its file
	Moved    []string           `json:"moved"`    // tier changed in the store: line moved to that tier's file
	Appended []string           `json:"appended"` // working memory of the store: line added to the working file
	Missing  []string           `json:"missing"`  // gone from every file: archived in the store, not deleted
	Removed  []string           `json:"removed"`  // deleted from the store: line removed from its file
	Files    []string           `json:"files"`    // files written
}

// Changed reports whether the sync changes anything.
func (r *SyncResult) Changed() bool {
	ch := r.Changes
	return len(ch.Insert)+len(ch.Update)+len(ch.Drop)+len(r.Files) > 0 || len(ch.Records) > 0
}

// StoreText is a memory's content as an entry line shows it: one line,
// runs of whitespace as one space when the content spans lines. A bare CR
// does not end a line of a managed file, so an entry's text may hold one;
// collapsing it too made every sync rewrite that line.
func StoreText(m *recall.Memory) string {
	if strings.Contains(m.Content, "\n") {
		return strings.Join(strings.Fields(m.Content), " ")
	}
	return m.Content
}

// Sync reconciles files and store by id. The file an entry sits in decides
// its tier and its text wins, unless the sync record shows that only the
// store changed since the last sync, in which case the store is rendered
// back into the file. It edits in.Set in memory and returns the store
// changes; callers write the files, then apply the changes.
func Sync(in SyncInput) *SyncResult {
	res := &SyncResult{Changes: recall.TierChanges{Op: "sync"}, Added: []string{}, Edited: []string{}, Retiered: []string{},
		Rendered: []string{}, Moved: []string{}, Appended: []string{}, Missing: []string{}, Removed: []string{}}
	seen := map[string]bool{}
	for _, e := range in.Set.Entries() {
		seen[e.ID] = true
		syncEntry(in, res, e)
	}
	for id, r := range in.Records {
		if seen[id] {
			continue
		}
		res.Changes.Drop = append(res.Changes.Drop, id)
		m := in.Memories[id]
		if m == nil {
			continue
		}
		if m.Tier != recall.TierArchive || m.Status != recall.StatusArchived {
			tier, status := recall.TierArchive, recall.StatusArchived
			res.Changes.Update = append(res.Changes.Update, recall.MemoryChange{ID: id, Update: recall.MemoryUpdate{Tier: &tier, Status: &status}})
		}
		res.Missing = append(res.Missing, r.ID)
	}
	var render []*recall.Memory
	for _, m := range in.Memories {
		if seen[m.ID] || m.Tier != recall.TierWorking || m.Status != recall.StatusActive {
			continue
		}
		if _, ok := in.Records[m.ID]; !ok {
			render = append(render, m)
		}
	}
	sort.Slice(render, func(i, j int) bool {
		if !render[i].CreatedAt.Equal(render[j].CreatedAt) {
			return render[i].CreatedAt.Before(render[j].CreatedAt)
		}
		return render[i].ID < render[j].ID
	})
	for _, m := range render {
		text := StoreText(m)
		in.Set.Add(in.Set.WorkingFile, text, m.ID)
		res.Changes.Records = append(res.Changes.Records, recall.SyncRecord{ID: m.ID, File: in.Set.WorkingFile, Text: text, Tier: recall.TierWorking})
		res.Appended = append(res.Appended, m.ID)
	}
	sortIDs(res)
	res.Files = append([]string{}, in.Set.Dirty()...)
	return res
}

func syncEntry(in SyncInput, res *SyncResult, e recall.ManagedEntry) {
	m := in.Memories[e.ID]
	r, hasRecord := in.Records[e.ID]
	if m == nil {
		if hasRecord { // deleted from the store since the last sync
			if f := in.Set.File(e.File); f != nil {
				if _, err := f.Remove(e.ID); err == nil {
					res.Removed = append(res.Removed, e.ID)
				}
			}
			res.Changes.Drop = append(res.Changes.Drop, e.ID)
			return
		}
		res.Changes.Insert = append(res.Changes.Insert, newEntryMemory(in, e))
		res.Changes.Records = append(res.Changes.Records, recall.SyncRecord{ID: e.ID, File: e.File, Text: e.Text, Tier: e.Tier})
		res.Added = append(res.Added, e.ID)
		return
	}
	var upd recall.MemoryUpdate
	changed := false
	text, file, tier := e.Text, e.File, e.Tier
	if st := StoreText(m); e.Text != st {
		if hasRecord && e.Text == r.Text {
			if err := in.Set.File(e.File).SetText(e.ID, st); err == nil {
				text = st
				res.Rendered = append(res.Rendered, e.ID)
			}
		} else {
			t := e.Text
			upd.Content = &t
			if m.Title == "" || m.Title == m.Content {
				upd.Title = &t
			}
			changed = true
			res.Edited = append(res.Edited, e.ID)
		}
	}
	if e.Tier != m.Tier {
		if hasRecord && e.Tier == r.Tier {
			home := in.Set.HomeOf(m.Tier)
			if _, err := in.Set.Move(e.ID, home); err == nil {
				file, tier = home, m.Tier
				res.Moved = append(res.Moved, e.ID)
			}
		} else {
			t := e.Tier
			upd.Tier = &t
			if st := statusForTier(m.Status, e.Tier); st != m.Status {
				upd.Status = &st
			}
			changed = true
			res.Retiered = append(res.Retiered, e.ID)
		}
	}
	if in.Metadata != nil {
		if mu, ok := in.Metadata.Update(e.ID); ok {
			upd.Pinned, upd.ReviewedAt, upd.SnoozedUntil = mu.Pinned, mu.ReviewedAt, mu.SnoozedUntil
			if mu.Status != nil && upd.Status == nil {
				upd.Status = mu.Status
			}
			changed = true
		}
	}
	if changed {
		res.Changes.Update = append(res.Changes.Update, recall.MemoryChange{ID: e.ID, Update: upd})
	}
	if !hasRecord || r.File != file || r.Text != text || r.Tier != tier {
		res.Changes.Records = append(res.Changes.Records, recall.SyncRecord{ID: e.ID, File: file, Text: text, Tier: tier})
	}
}

// statusForTier keeps status in step with a tier change made in the files:
// an entry moved into the archive is archived, one taken out is active.
func statusForTier(status, tier string) string {
	switch {
	case tier == recall.TierArchive && status == recall.StatusActive:
		return recall.StatusArchived
	case tier != recall.TierArchive && status == recall.StatusArchived:
		return recall.StatusActive
	}
	return status
}

// newEntryMemory is the memory for an entry new to the store: reviewed
// now (seed 000: a new id gets last_reviewed_at=now), with what
// metadata.json says about it when that is being imported.
func newEntryMemory(in SyncInput, e recall.ManagedEntry) *recall.Memory {
	now := in.Now.UTC()
	m := &recall.Memory{
		ID: e.ID, Content: e.Text, Title: e.Text, Tier: e.Tier,
		Status: statusForTier(recall.StatusActive, e.Tier), ReviewedAt: &now,
		CreatedAt: now, UpdatedAt: now, Confidence: 1,
	}
	if in.Metadata != nil {
		if t, ok := in.Metadata.CreatedAt(e.ID); ok {
			m.CreatedAt = t
		}
		if upd, ok := in.Metadata.Update(e.ID); ok {
			if upd.Pinned != nil {
				m.Pinned = *upd.Pinned
			}
			if upd.Status != nil {
				m.Status = *upd.Status
			}
			m.ReviewedAt, m.SnoozedUntil = upd.ReviewedAt, upd.SnoozedUntil
		}
	}
	m.OccurredAt = m.CreatedAt
	return m
}

func sortIDs(r *SyncResult) {
	for _, ids := range [][]string{r.Added, r.Edited, r.Retiered, r.Rendered, r.Moved, r.Appended, r.Missing, r.Removed} {
		sort.Strings(ids)
	}
}

// Preview returns the memories as they will be once res is applied, for
// planning on a reconciled view without writing anything.
func Preview(in SyncInput, res *SyncResult) map[string]*recall.Memory {
	out := make(map[string]*recall.Memory, len(in.Memories)+len(res.Changes.Insert))
	for id, m := range in.Memories {
		out[id] = m
	}
	for _, m := range res.Changes.Insert {
		out[m.ID] = m
	}
	for _, c := range res.Changes.Update {
		prev := out[c.ID]
		if prev == nil {
			continue
		}
		m := *prev
		u := c.Update
		set := func(dst *string, v *string) {
			if v != nil {
				*dst = *v
			}
		}
		set(&m.Content, u.Content)
		set(&m.Title, u.Title)
		set(&m.Tier, u.Tier)
		set(&m.Status, u.Status)
		if u.Pinned != nil {
			m.Pinned = *u.Pinned
		}
		if u.ReviewedAt != nil {
			m.ReviewedAt = u.ReviewedAt
		}
		if u.SnoozedUntil != nil {
			m.SnoozedUntil = u.SnoozedUntil
		}
		out[c.ID] = &m
	}
	return out
}
