package engine

import (
	"context"
	"strings"

	"github.com/recall-mem/recall"
)

// pinCollection is where a session's new pins go (sqlite.PinCollection).
const pinCollection = "core"

// EndSession ends a session and captures its summary. A pin that names an
// existing memory (its key, the slug of its title, or its title) pins it;
// any other pin becomes a new pinned core memory. The result says which
// (PinID, PinCreated).
func (e *Engine) EndSession(ctx context.Context, end recall.SessionEnd) (*recall.Session, error) {
	pin := strings.TrimSpace(end.Pin)
	if pin == "" {
		return e.Sessions().EndSession(ctx, end)
	}
	existing, err := e.pinTarget(ctx, pin)
	if err != nil {
		return nil, err
	}
	if existing == nil {
		s, err := e.Sessions().EndSession(ctx, end)
		if err != nil {
			return nil, err
		}
		s.PinCreated = true
		if m := e.newPin(ctx, pin); m != nil {
			s.PinID = m.ID
		}
		return s, nil
	}
	if existing.Pinned {
		// As for a new pin with a pinned title: refused, nothing written.
		return nil, recall.Errorf(recall.ECONFLICT, "%q is already pinned (%s): pins are deduplicated; choose another title or update %s.", pin, existing.ID, existing.ID)
	}
	yes, working := true, recall.TierWorking
	if _, err := e.Update(ctx, existing.ID, recall.MemoryUpdate{Pinned: &yes, Tier: &working}); err != nil {
		return nil, err
	}
	end.Pin = ""
	s, err := e.Sessions().EndSession(ctx, end)
	if err != nil {
		return nil, err
	}
	s.PinID = existing.ID
	return s, nil
}

// pinTarget is the active memory pin names by key, in any collection, by
// the slug of the title, or by its title; nil when none does.
func (e *Engine) pinTarget(ctx context.Context, pin string) (*recall.Memory, error) {
	for _, ref := range []string{pin, recall.Slugify(pin)} {
		if ref == "" || recall.ValidateKey(ref) != nil {
			continue
		}
		m, err := e.Get(ctx, ref, "")
		switch {
		case err == nil && m.Status == recall.StatusActive:
			return m, nil
		case err != nil && recall.ErrorCode(err) != recall.ENOTFOUND:
			return nil, err // a key in several collections: the caller must choose
		}
	}
	// A title whose key is not its slug: the most recently changed
	// memories are the ones a session names.
	ms, _, err := e.List(ctx, recall.MemoryFilter{Limit: completeScan})
	if err != nil {
		return nil, err
	}
	for _, m := range ms {
		if strings.EqualFold(m.Title, pin) {
			return m, nil
		}
	}
	return nil, nil
}

// newPin finds the core memory a session end just pinned under title.
func (e *Engine) newPin(ctx context.Context, title string) *recall.Memory {
	col, yes := pinCollection, true
	ms, _, err := e.List(ctx, recall.MemoryFilter{Collection: &col, Pinned: &yes})
	if err != nil {
		return nil
	}
	for _, m := range ms {
		if strings.EqualFold(m.Title, title) {
			return m
		}
	}
	return nil
}
