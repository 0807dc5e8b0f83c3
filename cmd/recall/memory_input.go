package main

import (
	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/markdown"
	"github.com/spf13/cobra"
)

// memoryFlags are the fields a memory can be given on the command line.
type memoryFlags struct {
	collection, key, title, tags, typ, category, context, metadata string
	project, priority, tier, related, createdBy, occurredAt        string
	confidence                                                     float64
	pin                                                            bool
	anchors                                                        []string // files the memory is about, resolved after the store opens
}

func (f *memoryFlags) register(c *cobra.Command) {
	fl := c.Flags()
	fl.StringVar(&f.collection, "collection", "", "collection `NAME` (default \"default\")")
	fl.StringVar(&f.key, "key", "", "key `K`, unique in the collection (default: slug of the title or first H1)")
	fl.StringVar(&f.title, "title", "", "title (default: the first H1)")
	fl.StringVar(&f.tags, "tags", "", "comma-separated tags `a,b`")
	fl.StringVar(&f.typ, "type", "", "type: fact, preference, decision, constraint, note, procedure, …")
	fl.StringVar(&f.category, "category", "", "primary category")
	fl.StringVar(&f.context, "context", "", "why this memory was stored")
	fl.StringVar(&f.metadata, "metadata", "", "metadata as a JSON object")
	fl.StringVar(&f.project, "project", "", "project name")
	fl.StringVar(&f.priority, "priority", "", "priority (e.g. high)")
	fl.StringVar(&f.tier, "tier", "", "tier: working, register (default) or archive")
	fl.StringVar(&f.related, "related", "", "comma-separated related ids or references")
	fl.StringVar(&f.createdBy, "created-by", "", "author (default $RECALL_AGENT, else $USER)")
	fl.StringVar(&f.occurredAt, "occurred-at", "", "when the thing it describes happened (default now)")
	fl.Float64Var(&f.confidence, "confidence", 0, "confidence from 0 to 1 (default 1)")
	fl.BoolVar(&f.pin, "pin", false, "pin as core memory (never evicted)")
	fl.StringArrayVar(&f.anchors, "anchor", nil, "anchor to file `PATH` (repeatable): maintain flags the memory when the file changes")
}

// buildMemory makes a memory from a document (frontmatter and body) and
// flags; flags win over frontmatter.
func buildMemory(doc []byte, f *memoryFlags, c *cobra.Command) (*recall.Memory, error) {
	m, err := engine.MemoryFromDocument(doc)
	if err != nil {
		return nil, err
	}
	set := func(name string, dst *string, v string) {
		if c.Flags().Changed(name) {
			*dst = v
		}
	}
	set("collection", &m.Collection, f.collection)
	set("key", &m.Key, f.key)
	set("title", &m.Title, f.title)
	set("type", &m.Type, f.typ)
	set("category", &m.Category, f.category)
	set("context", &m.Context, f.context)
	set("project", &m.Project, f.project)
	set("priority", &m.Priority, f.priority)
	set("tier", &m.Tier, f.tier)
	set("created-by", &m.CreatedBy, f.createdBy)
	if c.Flags().Changed("tags") {
		m.Tags = markdown.SplitList(f.tags)
	}
	if c.Flags().Changed("related") {
		m.Related = markdown.SplitList(f.related)
	}
	if c.Flags().Changed("confidence") {
		m.Confidence = f.confidence
	}
	if f.pin {
		m.Pinned = true
	}
	if c.Flags().Changed("occurred-at") {
		t, err := engine.ParseTime("occurred-at", f.occurredAt)
		if err != nil {
			return nil, err
		}
		m.OccurredAt = t
	}
	if c.Flags().Changed("metadata") {
		if m.Metadata, err = engine.ParseMetadata("metadata", f.metadata); err != nil {
			return nil, err
		}
	}
	engine.FillMemoryDefaults(m)
	return m, nil
}
