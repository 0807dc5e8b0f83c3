package engine

import (
	"context"

	"github.com/recall-mem/recall/markdown"
)

// TaggedEntry is an entry InitIDs gave an id: where it is and its text.
type TaggedEntry struct {
	File string `json:"file"`
	Line int    `json:"line"`
	ID   string `json:"id"`
	Text string `json:"text"`
}

// InitIDs gives every managed entry under rootFlag that has no id a new
// one and writes the files, changing nothing else. It returns the entries
// it tagged, in the order the files list them (empty, not nil, when every
// entry had an id).
func (e *Engine) InitIDs(ctx context.Context, rootFlag string) ([]TaggedEntry, error) {
	ws, err := e.OpenWorkspace(ctx, rootFlag)
	if err != nil {
		return nil, err
	}
	defer ws.Close()
	set := ws.Set
	missing := set.Untagged()
	if _, err := e.TagUntagged(ctx, ws); err != nil {
		return nil, err
	}
	if _, err := set.Write(); err != nil {
		return nil, err
	}
	byLine := map[markdown.Location]string{}
	for _, en := range set.Entries() {
		byLine[markdown.Location{File: en.File, Line: en.Line}] = en.ID
	}
	out := []TaggedEntry{}
	for _, loc := range missing {
		id := byLine[markdown.Location{File: loc.File, Line: loc.Line}]
		out = append(out, TaggedEntry{loc.File, loc.Line, id, loc.Item.Text})
	}
	return out, nil
}
