// Package pack assembles the context an agent sees into a token budget:
// sections in priority order (pinned core, working set, query hits, and
// whatever other packages supply), deduplicated, never over the budget as
// counted by a real tokenizer.
package pack

import (
	"context"
	"fmt"
	"strings"

	"github.com/recall-mem/recall"
)

// Builder packs sections into a budget. It implements recall.ContextBuilder.
type Builder struct {
	Sections []Section
	// Tokens counts tokens; nil means a lazily loaded o200k tokenizer.
	Tokens Counter
}

var _ recall.ContextBuilder = (*Builder)(nil)

// NewBuilder returns a Builder over sections with the default tokenizer.
func NewBuilder(sections ...Section) *Builder {
	return &Builder{Sections: sections, Tokens: &Tokenizer{}}
}

// BuildContext fetches every section and packs its items, highest value
// first, skipping items already packed and items that do not fit.
// Returns EINVALID for a budget that is not positive.
func (b *Builder) BuildContext(ctx context.Context, req recall.ContextRequest) (*recall.ContextPack, error) {
	if req.Budget <= 0 {
		return nil, recall.Errorf(recall.EINVALID, "Invalid budget %d: give a positive number of tokens, such as 2000.", req.Budget)
	}
	tok := b.Tokens
	if tok == nil {
		tok = &Tokenizer{}
	}
	p := &packer{tok: tok, budget: req.Budget, seen: map[string]bool{}}
	for _, s := range b.Sections {
		items, err := s.Fetch(ctx, req)
		if err != nil {
			return nil, fmt.Errorf("context section %s: %w", s.Name, err)
		}
		p.add(s, items)
	}
	return p.finish(), nil
}

// packer accumulates sections greedily. Token counts of separate pieces
// need not add up exactly to the count of their concatenation, so finish
// counts the whole text and drops items from the end until it fits.
type packer struct {
	tok      Counter
	budget   int
	used     int
	seen     map[string]bool
	sections []packedSection
	dropped  int
}

type packedSection struct {
	sec    Section
	header string
	items  []recall.ContextItem
}

func (p *packer) add(s Section, items []recall.ContextItem) {
	ps := packedSection{sec: s, header: "## " + s.Title + "\n"}
	headerTokens := p.tok.Count(ps.header)
	if len(p.sections) > 0 {
		ps.header = "\n" + ps.header
		headerTokens = p.tok.Count(ps.header)
	}
	for _, it := range items {
		key := it.Kind + ":" + it.ID
		if it.ID == "" {
			key = "text:" + it.Text
		}
		if p.seen[key] || strings.TrimSpace(it.Text) == "" {
			continue
		}
		it.Tokens = p.tok.Count(line(it))
		cost := it.Tokens
		if len(ps.items) == 0 {
			cost += headerTokens
		}
		if p.used+cost > p.budget {
			p.dropped++
			continue
		}
		p.seen[key] = true
		p.used += cost
		ps.items = append(ps.items, it)
	}
	if len(ps.items) > 0 {
		p.sections = append(p.sections, ps)
	}
}

// line renders one item in the text output; a memory carries its id the way
// the markdown files do, so an agent can cite or fetch it.
func line(it recall.ContextItem) string {
	s := "- " + strings.ReplaceAll(it.Text, "\n", " ")
	if it.ID != "" && it.Kind == "memory" {
		s += " ^" + it.ID
	}
	return s + "\n"
}

func (p *packer) render() string {
	var sb strings.Builder
	for _, ps := range p.sections {
		sb.WriteString(ps.header)
		for _, it := range ps.items {
			sb.WriteString(line(it))
		}
	}
	return sb.String()
}

func (p *packer) finish() *recall.ContextPack {
	text := p.render()
	total := p.tok.Count(text)
	for total > p.budget && len(p.sections) > 0 {
		last := &p.sections[len(p.sections)-1]
		last.items = last.items[:len(last.items)-1]
		p.dropped++
		if len(last.items) == 0 {
			p.sections = p.sections[:len(p.sections)-1]
		}
		text = p.render()
		total = p.tok.Count(text)
	}
	out := &recall.ContextPack{Text: text, Tokens: total, Budget: p.budget, Dropped: p.dropped, Sections: []recall.ContextSection{}}
	for _, ps := range p.sections {
		cs := recall.ContextSection{Name: ps.sec.Name, Tokens: p.tok.Count(ps.header), Items: ps.items}
		for _, it := range ps.items {
			cs.Tokens += it.Tokens
		}
		out.Sections = append(out.Sections, cs)
	}
	return out
}
