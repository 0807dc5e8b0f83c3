package httpapi

import (
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/recall-mem/recall"
)

// Query parameters of memory filters. Field filters are written like the
// CLI's --filter, one value per parameter and never split on commas, so any
// value survives the trip: ?filter=tags=api&filter=tags=auth.
const (
	qCollection = "collection"
	qKey        = "key"
	qID         = "id"
	qType       = "type"
	qTier       = "tier"
	qStatus     = "status"
	qProject    = "project"
	qPinned     = "pinned"
	qSince      = "since"
	qUntil      = "until"
	qFilter     = "filter"
	qLimit      = "limit"
	qOffset     = "offset"
	qIDs        = "ids"
	qNewest     = "newest"
)

// encodeFilter writes f into q.
func encodeFilter(q url.Values, f recall.MemoryFilter) {
	set := func(name string, v *string) {
		if v != nil {
			q.Set(name, *v)
		}
	}
	set(qID, f.ID)
	set(qCollection, f.Collection)
	set(qKey, f.Key)
	set(qType, f.Type)
	set(qTier, f.Tier)
	set(qStatus, f.Status)
	set(qProject, f.Project)
	if f.Pinned != nil {
		q.Set(qPinned, strconv.FormatBool(*f.Pinned))
	}
	if f.Since != nil {
		q.Set(qSince, formatTime(*f.Since))
	}
	if f.Until != nil {
		q.Set(qUntil, formatTime(*f.Until))
	}
	for name, values := range f.Fields {
		for _, v := range values {
			q.Add(qFilter, name+"="+v)
		}
	}
	for _, id := range f.IDs {
		q.Add(qIDs, id)
	}
	if f.Newest {
		q.Set(qNewest, "true")
	}
	encodePage(q, f.Limit, f.Offset)
}

// encodePage writes limit and offset, leaving out zeros.
func encodePage(q url.Values, limit, offset int) {
	if limit != 0 {
		q.Set(qLimit, strconv.Itoa(limit))
	}
	if offset != 0 {
		q.Set(qOffset, strconv.Itoa(offset))
	}
}

// parseFilter reads a memory filter from query parameters. Returns
// EINVALID for a malformed number, boolean, time or field filter.
func parseFilter(q url.Values) (recall.MemoryFilter, error) {
	var f recall.MemoryFilter
	opt := func(name string) *string {
		if _, ok := q[name]; ok {
			v := q.Get(name)
			return &v
		}
		return nil
	}
	f.ID, f.Collection, f.Key, f.Type = opt(qID), opt(qCollection), opt(qKey), opt(qType)
	f.Tier, f.Status, f.Project = opt(qTier), opt(qStatus), opt(qProject)
	if v := opt(qPinned); v != nil {
		b, err := strconv.ParseBool(*v)
		if err != nil {
			return f, recall.Errorf(recall.EINVALID, "Invalid pinned=%q: use true or false.", *v)
		}
		f.Pinned = &b
	}
	if v := opt(qNewest); v != nil {
		b, err := strconv.ParseBool(*v)
		if err != nil {
			return f, recall.Errorf(recall.EINVALID, "Invalid newest=%q: use true or false.", *v)
		}
		f.Newest = b
	}
	if ids, ok := q[qIDs]; ok {
		f.IDs = ids
	}
	var err error
	if f.Since, err = parseTimeParam(q, qSince); err != nil {
		return f, err
	}
	if f.Until, err = parseTimeParam(q, qUntil); err != nil {
		return f, err
	}
	for _, item := range q[qFilter] {
		name, v, ok := strings.Cut(item, "=")
		if !ok || strings.TrimSpace(name) == "" {
			return f, recall.Errorf(recall.EINVALID, "Invalid filter=%q: use filter=FIELD=VALUE, one value per parameter (e.g. filter=tags=api&filter=tags=auth).", item)
		}
		if f.Fields == nil {
			f.Fields = map[string][]string{}
		}
		f.Fields[name] = append(f.Fields[name], v)
	}
	if f.Limit, err = intParam(q, qLimit); err != nil {
		return f, err
	}
	if f.Offset, err = intParam(q, qOffset); err != nil {
		return f, err
	}
	return f, nil
}

func parseTimeParam(q url.Values, name string) (*time.Time, error) {
	v := q.Get(name)
	if v == "" {
		return nil, nil
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return nil, recall.Errorf(recall.EINVALID, "Invalid %s=%q: use an RFC 3339 time like 2026-01-02T15:04:05Z.", name, v)
	}
	t = t.UTC()
	return &t, nil
}

func intParam(q url.Values, name string) (int, error) {
	v := q.Get(name)
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, recall.Errorf(recall.EINVALID, "Invalid %s=%q: use a whole number of at least 0.", name, v)
	}
	return n, nil
}

// memoryPatch is the JSON body of PATCH /v1/memories/{id}: absent or null
// fields stay as they are; "tags": [] clears the tags; metadata is merged
// key by key and a null value removes a key.
type memoryPatch struct {
	Title        *string          `json:"title,omitempty"`
	Content      *string          `json:"content,omitempty"`
	Tags         *[]string        `json:"tags,omitempty"`
	MergeTags    bool             `json:"merge_tags,omitempty"`
	Type         *string          `json:"type,omitempty"`
	Category     *string          `json:"category,omitempty"`
	Context      *string          `json:"context,omitempty"`
	Related      *[]string        `json:"related,omitempty"`
	Project      *string          `json:"project,omitempty"`
	Priority     *string          `json:"priority,omitempty"`
	Confidence   *float64         `json:"confidence,omitempty"`
	Tier         *string          `json:"tier,omitempty"`
	Pinned       *bool            `json:"pinned,omitempty"`
	Status       *string          `json:"status,omitempty"`
	Metadata     *json.RawMessage `json:"metadata,omitempty"`
	Anchors      *[]recall.Anchor `json:"anchors,omitempty"`
	Key          *string          `json:"key,omitempty"`
	Collection   *string          `json:"collection,omitempty"`
	OccurredAt   *time.Time       `json:"occurred_at,omitempty"`
	ReviewedAt   *time.Time       `json:"reviewed_at,omitempty"`
	SnoozedUntil *time.Time       `json:"snoozed_until,omitempty"`
	ClearSnooze  bool             `json:"clear_snooze,omitempty"`
}

// patchFrom and update convert by struct conversion, so a field added to
// recall.MemoryUpdate fails to compile here until the wire form has it too.
func patchFrom(u recall.MemoryUpdate) memoryPatch { return memoryPatch(u) }

func (p memoryPatch) update() recall.MemoryUpdate { return recall.MemoryUpdate(p) }

// filterBody is a memory filter inside a JSON body (POST /v1/context).
type filterBody struct {
	ID         *string             `json:"id,omitempty"`
	IDs        []string            `json:"ids,omitempty"`
	Collection *string             `json:"collection,omitempty"`
	Key        *string             `json:"key,omitempty"`
	Type       *string             `json:"type,omitempty"`
	Tier       *string             `json:"tier,omitempty"`
	Status     *string             `json:"status,omitempty"`
	Pinned     *bool               `json:"pinned,omitempty"`
	Project    *string             `json:"project,omitempty"`
	Fields     map[string][]string `json:"fields,omitempty"`
	Since      *time.Time          `json:"since,omitempty"`
	Until      *time.Time          `json:"until,omitempty"`
	Newest     bool                `json:"newest,omitempty"`
	Offset     int                 `json:"offset,omitempty"`
	Limit      int                 `json:"limit,omitempty"`
}

func filterBodyFrom(f recall.MemoryFilter) filterBody { return filterBody(f) }

func (b filterBody) filter() recall.MemoryFilter { return recall.MemoryFilter(b) }

// contextBody is the JSON body of POST /v1/context.
type contextBody struct {
	Query  string     `json:"query,omitempty"`
	Budget int        `json:"budget"`
	Now    time.Time  `json:"now,omitzero"`
	Filter filterBody `json:"filter,omitzero"`
}

// putResult is the response to POST /v1/memories.
type putResult struct {
	Memory  *recall.Memory `json:"memory"`
	Created bool           `json:"created"`
}

// memoryList is the response to GET /v1/memories.
type memoryList struct {
	Memories []*recall.Memory `json:"memories"`
	Total    int              `json:"total"`
}

// observationList is the response to GET /v1/observations.
type observationList struct {
	Observations []*recall.Observation `json:"observations"`
	Total        int                   `json:"total"`
}

// observationBatch is the body of POST /v1/observations and its response.
type observationBatch struct {
	Observations []*recall.Observation `json:"observations"`
}

// restoreBody is the body of POST /v1/memories/{id}/restore.
type restoreBody struct {
	Version int `json:"version"`
}
