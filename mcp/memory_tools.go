package mcp

import (
	"context"
	"encoding/json"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/recall-mem/recall"
)

type putIn struct {
	Content    string         `json:"content" jsonschema:"the memory itself, in markdown; one fact, decision, preference or procedure per memory"`
	Title      string         `json:"title,omitempty" jsonschema:"short title; the key defaults to its slug"`
	Collection string         `json:"collection,omitempty" jsonschema:"collection name (lower-case slug); default \"default\""`
	Key        string         `json:"key,omitempty" jsonschema:"stable slug naming this memory; putting an existing key writes a new version instead of a duplicate"`
	Tags       []string       `json:"tags,omitempty" jsonschema:"tags, e.g. [\"api\", \"auth\"]"`
	Type       string         `json:"type,omitempty" jsonschema:"fact, preference, decision, constraint, note, procedure, open_loop, ..."`
	Metadata   map[string]any `json:"metadata,omitempty" jsonschema:"free JSON object, e.g. {\"source\": \"chat\"}"`
}

type putOut struct {
	ID         string `json:"id"`
	Key        string `json:"key,omitempty"`
	Collection string `json:"collection"`
	Version    int    `json:"version"`
	Created    bool   `json:"created" jsonschema:"false when an existing key got a new version"`
	Unchanged  bool   `json:"unchanged,omitempty" jsonschema:"true when the memory already held this: no version was written"`
}

type refIn struct {
	ID         string `json:"id" jsonschema:"memory id (tr + 10 hex digits) or key"`
	Collection string `json:"collection,omitempty" jsonschema:"collection to look the key up in, when a key exists in several"`
}

type getIn struct {
	ID         string `json:"id" jsonschema:"memory id (tr + 10 hex digits) or key"`
	Collection string `json:"collection,omitempty" jsonschema:"collection to look the key up in, when a key exists in several"`
	Version    int    `json:"version,omitempty" jsonschema:"a past version number from memory_history; default the current one"`
}

type updateIn struct {
	ID         string         `json:"id" jsonschema:"memory id or key"`
	Collection string         `json:"collection,omitempty" jsonschema:"collection to look the key up in"`
	Content    *string        `json:"content,omitempty" jsonschema:"new content (replaces the old)"`
	Title      *string        `json:"title,omitempty" jsonschema:"new title"`
	Tags       []string       `json:"tags,omitempty" jsonschema:"new tags (replace the old ones unless merge_tags)"`
	MergeTags  bool           `json:"merge_tags,omitempty" jsonschema:"add tags to the existing ones instead of replacing them"`
	Type       *string        `json:"type,omitempty" jsonschema:"new type"`
	Metadata   map[string]any `json:"metadata,omitempty" jsonschema:"merged key by key into the metadata; a null value removes a key"`
	Status     *string        `json:"status,omitempty" jsonschema:"active, superseded, archived or compacted"`
	Tier       *string        `json:"tier,omitempty" jsonschema:"working, register or archive"`
	Priority   *string        `json:"priority,omitempty" jsonschema:"new priority, e.g. high"`
	Project    *string        `json:"project,omitempty" jsonschema:"new project"`
}

type changedOut struct {
	ID         string `json:"id"`
	Key        string `json:"key,omitempty"`
	Collection string `json:"collection"`
	Version    int    `json:"version"`
}

type deleteOut struct {
	ID      string `json:"id"`
	Deleted bool   `json:"deleted"`
}

type historyOut struct {
	ID       string         `json:"id"`
	Versions []versionBrief `json:"versions"`
}

type versionBrief struct {
	Version   int    `json:"version"`
	Op        string `json:"op" jsonschema:"put, update, restore, delete, import or sync"`
	ChangedAt string `json:"changed_at"`
	Title     string `json:"title,omitempty"`
	Snippet   string `json:"snippet"`
}

func (t *tools) addMemoryTools(s *sdk.Server) {
	sdk.AddTool(s, &sdk.Tool{Name: "memory_put", Annotations: writes("Store a memory", false, false),
		Description: "Store a durable memory: a fact, decision, preference, constraint or procedure worth recalling in later sessions. " +
			"Give content; add a title (its slug becomes the key) or an explicit key. Putting an existing key in the same collection writes a new version of that memory instead of a duplicate, so reuse keys to correct or refine. " +
			"Returns the id, key and version."}, t.put)
	sdk.AddTool(s, &sdk.Tool{Name: "memory_get", Annotations: readOnly("Read a memory"),
		Description: "Read one memory in full (content, tags, metadata, times) by id or key. Search and list results are compact; use this for the whole text. Pass version to read a past version listed by memory_history."}, t.get)
	sdk.AddTool(s, &sdk.Tool{Name: "memory_update", Annotations: writes("Change a memory", true, false),
		Description: "Change some fields of a memory by id or key; fields you leave out stay as they are. Every change is a new version, and earlier versions stay readable with memory_history. " +
			"Tags replace the old ones unless merge_tags is true; metadata is merged key by key (null removes a key). Mark outdated memories with status superseded rather than deleting them."}, t.update)
	sdk.AddTool(s, &sdk.Tool{Name: "memory_delete", Annotations: writes("Delete a memory", true, true),
		Description: "Delete a memory by id or key. It disappears from search and lists; its history stays (memory_history), so the user can restore it. Prefer memory_update with status superseded for outdated facts."}, t.delete)
	sdk.AddTool(s, &sdk.Tool{Name: "memory_list", Annotations: readOnly("List memories"),
		Description: "List memories, most recently changed first, with optional filters (collection, type, tier, status, project, pinned, filter). Results are compact (id, title, snippet) with the total count; page with limit and offset."}, t.list)
	sdk.AddTool(s, &sdk.Tool{Name: "memory_history", Annotations: readOnly("Versions of a memory"),
		Description: "List the stored versions of a memory, oldest first (also of a deleted memory, by id): version number, operation, time and a snippet. Read one in full with memory_get and version."}, t.history)
}

func (t *tools) put(ctx context.Context, req *sdk.CallToolRequest, in putIn) (*sdk.CallToolResult, putOut, error) {
	m := &recall.Memory{Content: in.Content, Title: in.Title, Collection: in.Collection, Key: in.Key,
		Tags: recall.NormalizeTags(in.Tags), Type: in.Type, CreatedBy: clientName(req)}
	if in.Metadata != nil {
		raw, err := json.Marshal(in.Metadata)
		if err != nil {
			return nil, putOut{}, t.fail(ctx, "memory_put", recall.Errorf(recall.EINVALID, "Metadata must be a JSON object."), "")
		}
		m.Metadata = raw
	}
	// The same defaults as `recall put` (seed 002): the title comes from
	// the first heading and the key from the title.
	if m.Title == "" {
		m.Title = recall.FirstH1(m.Content)
	}
	if m.Key == "" {
		m.Key = recall.Slugify(m.Title)
	}
	res, err := t.eng.Put(ctx, m)
	if err != nil {
		return nil, putOut{}, t.fail(ctx, "memory_put", err, "")
	}
	r := res.Memory
	return nil, putOut{ID: r.ID, Key: r.Key, Collection: r.Collection, Version: r.Version, Created: res.Created, Unchanged: res.Unchanged}, nil
}

// clientName names the agent that wrote a memory: the MCP client's name.
func clientName(req *sdk.CallToolRequest) string {
	if req != nil && req.Session != nil {
		if p := req.Session.InitializeParams(); p != nil && p.ClientInfo != nil && p.ClientInfo.Name != "" {
			return p.ClientInfo.Name
		}
	}
	return "mcp"
}

func (t *tools) get(ctx context.Context, _ *sdk.CallToolRequest, in getIn) (*sdk.CallToolResult, memoryFull, error) {
	if in.Version > 0 {
		vs, err := t.eng.Versions(ctx, in.ID)
		if err != nil {
			return nil, memoryFull{}, t.fail(ctx, "memory_get", err, findMemoryHint)
		}
		for _, v := range vs {
			if v.Version == in.Version {
				return nil, fullMemory(v.Memory), nil
			}
		}
		return nil, memoryFull{}, t.fail(ctx, "memory_get", recall.Errorf(recall.ENOTFOUND, "Memory %s has no version %d.", in.ID, in.Version), "Call memory_history to list its versions.")
	}
	m, err := t.eng.Get(ctx, in.ID, in.Collection)
	if err != nil {
		return nil, memoryFull{}, t.fail(ctx, "memory_get", err, findMemoryHint)
	}
	return nil, fullMemory(m), nil
}

// resolve turns an id or key (within collection) into the memory's id:
// the service's writes take ids.
func (t *tools) resolve(ctx context.Context, ref, collection string) (string, error) {
	if collection == "" && recall.IsID(ref) {
		return ref, nil
	}
	m, err := t.eng.Get(ctx, ref, collection)
	if err != nil {
		return "", err
	}
	return m.ID, nil
}

func (t *tools) update(ctx context.Context, _ *sdk.CallToolRequest, in updateIn) (*sdk.CallToolResult, changedOut, error) {
	upd := recall.MemoryUpdate{Content: in.Content, Title: in.Title, Type: in.Type, Status: in.Status,
		Tier: in.Tier, Priority: in.Priority, Project: in.Project, MergeTags: in.MergeTags}
	if in.Tags != nil {
		tags := recall.NormalizeTags(in.Tags)
		if tags == nil {
			tags = []string{}
		}
		upd.Tags = &tags
	}
	if in.Metadata != nil {
		raw, err := json.Marshal(in.Metadata)
		if err != nil {
			return nil, changedOut{}, t.fail(ctx, "memory_update", recall.Errorf(recall.EINVALID, "Metadata must be a JSON object."), "")
		}
		msg := json.RawMessage(raw)
		upd.Metadata = &msg
	}
	id, err := t.resolve(ctx, in.ID, in.Collection)
	if err != nil {
		return nil, changedOut{}, t.fail(ctx, "memory_update", err, findMemoryHint)
	}
	m, err := t.eng.Update(ctx, id, upd)
	if err != nil {
		return nil, changedOut{}, t.fail(ctx, "memory_update", err, findMemoryHint)
	}
	return nil, changedOut{ID: m.ID, Key: m.Key, Collection: m.Collection, Version: m.Version}, nil
}

func (t *tools) delete(ctx context.Context, _ *sdk.CallToolRequest, in refIn) (*sdk.CallToolResult, deleteOut, error) {
	m, err := t.eng.Get(ctx, in.ID, in.Collection)
	if err == nil {
		err = t.eng.Delete(ctx, m.ID)
	}
	if err != nil {
		return nil, deleteOut{}, t.fail(ctx, "memory_delete", err, findMemoryHint)
	}
	return nil, deleteOut{ID: m.ID, Deleted: true}, nil
}

func (t *tools) history(ctx context.Context, _ *sdk.CallToolRequest, in refIn) (*sdk.CallToolResult, historyOut, error) {
	id, err := t.resolve(ctx, in.ID, in.Collection)
	if err != nil {
		return nil, historyOut{}, t.fail(ctx, "memory_history", err, findMemoryHint)
	}
	vs, err := t.eng.Versions(ctx, id)
	if err != nil {
		return nil, historyOut{}, t.fail(ctx, "memory_history", err, findMemoryHint)
	}
	out := historyOut{ID: id, Versions: []versionBrief{}}
	for _, v := range vs {
		b := versionBrief{Version: v.Version, Op: v.Op, ChangedAt: stamp(v.ChangedAt)}
		if v.Memory != nil {
			out.ID = v.Memory.ID
			b.Title, b.Snippet = v.Memory.Title, snippet(v.Memory.Content)
		}
		out.Versions = append(out.Versions, b)
	}
	return nil, out, nil
}
