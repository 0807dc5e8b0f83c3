package httpapi

import (
	"net/http"
	"reflect"
	"slices"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/internal/buildinfo"
)

// routeDoc describes one route for the OpenAPI document. Types, not
// hand-written schemas, say what travels, so the document follows the
// code; a test checks that this table and the routes the server registers
// are the same set.
type routeDoc struct {
	pattern     string // as registered on the mux: "METHOD /path/{param}"
	id, summary string
	params      []paramDoc
	body        reflect.Type     // request body, nil for none
	optional    bool             // the body may be left out
	media       string           // the success body's media type; "" means application/json
	responses   map[int]respBody // success statuses; every route also answers errors
}

// respBody is a success response's body type; nil means no body.
type respBody = reflect.Type

// paramDoc is a query or path parameter.
type paramDoc struct {
	name, in, about string
	schema          schemaObject
	required        bool
	repeat          bool // may appear more than once (an array, one value per parameter)
}

func typeOf[T any]() reflect.Type { return reflect.TypeFor[T]() }

var (
	strParam  = schemaObject{"type": "string"}
	boolParam = schemaObject{"type": "boolean"}
	timeParam = schemaObject{"type": "string", "format": "date-time"}
	pageParam = schemaObject{"type": "integer", "minimum": 0}
)

func query(name, about string, schema schemaObject) paramDoc {
	return paramDoc{name: name, in: "query", about: about, schema: schema}
}

// memoryRef is the {id} of the memory routes plus the ?collection= that
// scopes a key.
var memoryRef = []paramDoc{
	{name: "id", in: "path", required: true, schema: strParam, about: "A memory id, or a key (looked up in ?collection=, default the default collection)."},
	query(qCollection, "The collection in which {id} is a key.", strParam),
}

// filterParams are the memory filter's query parameters (parseFilter).
var filterParams = []paramDoc{
	query(qID, "Only the memory with this id.", strParam),
	query(qCollection, "Only this collection.", strParam),
	query(qKey, "Only the memory with this key.", strParam),
	query(qType, "Only this type (e.g. decision, fact).", strParam),
	query(qTier, "Only this tier (core, working, archive).", strParam),
	query(qStatus, "Only this status (active, superseded, archived); default active, * for any.", strParam),
	query(qProject, "Only this project.", strParam),
	query(qPinned, "Only pinned (true) or unpinned (false) memories.", boolParam),
	query(qSince, "Only memories that occurred at or after this time (RFC 3339).", timeParam),
	query(qUntil, "Only memories that occurred before this time (RFC 3339).", timeParam),
	{name: qFilter, in: "query", repeat: true, schema: strParam, about: "A field filter FIELD=VALUE, one value per parameter: filter=tags=api&filter=tags=auth."},
	{name: qIDs, in: "query", repeat: true, schema: strParam, about: "Only memories with one of these ids, one per parameter: ids=tr1&ids=tr2."},
	query(qNewest, "Order by occurred_at, newest first, instead of the last change first.", boolParam),
}

var pageParams = []paramDoc{
	query(qLimit, "At most this many results; 0 means the server's default.", pageParam),
	query(qOffset, "Skip this many results.", pageParam),
}

// searchParams are searchQuery's parameters: the filter without offset,
// which a search does not page by.
func searchParams() []paramDoc {
	ps := []paramDoc{
		{name: "q", in: "query", required: true, schema: strParam, about: "The words to search for."},
		query("mode", "Retrieval mode (default hybrid).", schemaObject{"type": "string", "enum": []string{recall.ModeHybrid, recall.ModeBM25, recall.ModeVector}}),
		query("explain", "Include each hit's score breakdown.", boolParam),
		query("now", "The time the ranking treats as now (RFC 3339).", timeParam),
		query("as_of", "Search the memories as they stood at this time (RFC 3339).", timeParam),
		query(qLimit, "At most this many hits.", pageParam),
	}
	return append(ps, filterParams...)
}

var observationParamDocs = []paramDoc{
	query("id", "Only the observation with this id.", schemaObject{"type": "integer", "format": "int64"}),
	query("type", "Only this type.", strParam),
	query("key", "Only this key.", strParam),
	query("session", "Only this session id.", strParam),
	query("project", "Only this project.", strParam),
	query("status", "Only this status (active, compacted).", strParam),
	query(qSince, "Only observations at or after this time (RFC 3339).", timeParam),
	query(qUntil, "Only observations before this time (RFC 3339).", timeParam),
	query("q", "Only observations whose content matches these words.", strParam),
	query("desc", "Newest first.", boolParam),
	pageParams[0], pageParams[1],
}

// apiRoutes is every route of the REST API, in the order of the document.
var apiRoutes = slices.Concat([]routeDoc{
	{pattern: "POST /v1/memories", id: "putMemory", summary: "Create a memory, or update the one with the same key.",
		body: typeOf[recall.Memory](), responses: map[int]respBody{http.StatusOK: typeOf[putResult](), http.StatusCreated: typeOf[putResult]()}},
	{pattern: "GET /v1/memories", id: "listMemories", summary: "List memories matching a filter.",
		params: append(append([]paramDoc{}, filterParams...), pageParams...), responses: map[int]respBody{http.StatusOK: typeOf[memoryList]()}},
	{pattern: "GET /v1/memories/{id}", id: "getMemory", summary: "Get one memory by id or key.",
		params: memoryRef, responses: map[int]respBody{http.StatusOK: typeOf[recall.Memory]()}},
	{pattern: "PATCH /v1/memories/{id}", id: "updateMemory", summary: "Change some fields of a memory; absent fields stay as they are.",
		params: memoryRef, body: typeOf[memoryPatch](), responses: map[int]respBody{http.StatusOK: typeOf[recall.Memory]()}},
	{pattern: "DELETE /v1/memories/{id}", id: "deleteMemory", summary: "Delete a memory (its versions stay restorable).",
		params: memoryRef, responses: map[int]respBody{http.StatusNoContent: nil}},
	{pattern: "GET /v1/memories/{id}/versions", id: "memoryVersions", summary: "List every stored version of a memory, oldest first.",
		params: memoryRef, responses: map[int]respBody{http.StatusOK: typeOf[versionList]()}},
	{pattern: "POST /v1/memories/{id}/restore", id: "restoreMemory", summary: "Restore a memory to an earlier version, as a new version.",
		params: memoryRef, body: typeOf[restoreBody](), responses: map[int]respBody{http.StatusOK: typeOf[recall.Memory]()}},
	{pattern: "POST /v1/import", id: "importMemories", summary: "Write many memories in one transaction.",
		body: typeOf[importBody](), responses: map[int]respBody{http.StatusOK: typeOf[recall.ImportResult]()}},
	{pattern: "GET /v1/search", id: "search", summary: "Ranked search over memories.",
		params: searchParams(), responses: map[int]respBody{http.StatusOK: typeOf[hitList]()}},
	{pattern: "POST /v1/context", id: "buildContext", summary: "Build a context pack within a token budget.",
		body: typeOf[contextBody](), responses: map[int]respBody{http.StatusOK: typeOf[recall.ContextPack]()}},
	{pattern: "POST /v1/observations", id: "recordObservations", summary: "Record observations; the response carries their ids.",
		body: typeOf[observationBatch](), responses: map[int]respBody{http.StatusCreated: typeOf[observationBatch]()}},
	{pattern: "GET /v1/observations", id: "findObservations", summary: "List observations matching a filter (the timeline).",
		params: observationParamDocs, responses: map[int]respBody{http.StatusOK: typeOf[observationList]()}},
	{pattern: "POST /v1/sessions", id: "startSession", summary: "Start a session: run the heartbeat and return the bootstrap context.",
		body: typeOf[recall.Session](), responses: map[int]respBody{http.StatusCreated: typeOf[recall.SessionStartReport]()}},
	{pattern: "GET /v1/sessions", id: "findSessions", summary: "List recent sessions, newest first.",
		params: pageParams[:1], responses: map[int]respBody{http.StatusOK: typeOf[sessionList]()}},
	{pattern: "POST /v1/sessions/{id}/end", id: "endSession", summary: "End a session with its summary.",
		params: []paramDoc{{name: "id", in: "path", required: true, schema: strParam, about: "The session id."}},
		body:   typeOf[recall.SessionEnd](), responses: map[int]respBody{http.StatusOK: typeOf[recall.Session]()}},
	{pattern: "POST /v1/sessions/end", id: "endSessionByBody", summary: "End the session the body's id names, or, without an id, record an implicit session under a new id.",
		body: typeOf[recall.SessionEnd](), responses: map[int]respBody{http.StatusOK: typeOf[recall.Session]()}},
	{pattern: "GET /v1/memories/{id}/diff", id: "memoryDiff", summary: "Show what changed between two versions of a memory, as a unified diff.",
		params: append([]paramDoc{
			query("from", "The older version (default the one before to).", schemaObject{"type": "integer", "minimum": 1}),
			query("to", "The newer version (default the current one).", schemaObject{"type": "integer", "minimum": 1}),
		}, memoryRef...), responses: map[int]respBody{http.StatusOK: typeOf[diffReport]()}},
}, actionRoutes(), []routeDoc{
	{pattern: "GET /v1/sync/plan", id: "planSync", summary: "Say what a sync of the project's managed files and the store would change, writing nothing.",
		params: []paramDoc{query("now", "The time the sync treats as now (RFC 3339).", timeParam)}, responses: map[int]respBody{http.StatusOK: typeOf[engine.SyncReport]()}},
	{pattern: "POST /v1/sync", id: "sync", summary: "Reconcile the project's managed files and the store: files first, then one transaction.",
		body: typeOf[syncBody](), optional: true, responses: map[int]respBody{http.StatusOK: typeOf[engine.SyncReport]()}},
	{pattern: "GET /v1/maintain/plan", id: "maintainPlan", summary: "Plan maintenance of the working set, changing nothing.",
		responses: map[int]respBody{http.StatusOK: typeOf[recall.MaintainPlan]()}},
	{pattern: "POST /v1/maintain/apply", id: "maintainApply", summary: "Sync, plan maintenance and apply the chosen (or recommended) actions.",
		body: typeOf[maintainBody](), responses: map[int]respBody{http.StatusOK: typeOf[engine.MaintainResult]()}},
	{pattern: "POST /v1/rollups/run", id: "runRollups", summary: "Roll raw entries up into the time tiers (4-hour, daily, weekly, monthly).",
		body: typeOf[rollupBody](), optional: true, responses: map[int]respBody{http.StatusOK: typeOf[recall.RollupReport]()}},
	{pattern: "GET /v1/tiers", id: "tiers", summary: "Count raw entries and rollups per tier.",
		responses: map[int]respBody{http.StatusOK: typeOf[tierList]()}},
	{pattern: "POST /v1/purge", id: "purge", summary: "Delete observations or memories for good (confirm), or count what would go (dry_run).",
		body: typeOf[purgeBody](), responses: map[int]respBody{http.StatusOK: typeOf[recall.PurgeReport]()}},
	{pattern: "POST /v1/sweep", id: "sweep", summary: "Apply the retention policy now (or count what it would remove).",
		body: typeOf[sweepBody](), optional: true, responses: map[int]respBody{http.StatusOK: typeOf[recall.SweepReport]()}},
	{pattern: "GET /v1/stats", id: "stats", summary: "Count the store's rows and measure its files, with the retention policy's advice.",
		params: []paramDoc{query("now", "The time growth is measured at (RFC 3339).", timeParam)}, responses: map[int]respBody{http.StatusOK: typeOf[recall.StoreStats]()}},
	{pattern: "GET /v1/reindex/status", id: "reindexStatus", summary: "Report the embedding coverage and the embedding queue.",
		responses: map[int]respBody{http.StatusOK: typeOf[recall.VectorStats]()}},
	{pattern: "GET /v1/doctor", id: "doctor", summary: "Check the store's files, integrity, views, embeddings, permissions, hooks and git.",
		responses: map[int]respBody{http.StatusOK: typeOf[doctorReport]()}},
	{pattern: "GET /v1/export", id: "export", summary: "Stream the memories matching a filter as JSON Lines, oldest first (what POST /v1/import takes back).",
		params: filterParams, media: jsonLinesType, responses: map[int]respBody{http.StatusOK: typeOf[recall.Memory]()}},
	{pattern: "POST /v1/backup", id: "backup", summary: "Write a consistent copy of the store under its backups/ directory and say where.",
		responses: map[int]respBody{http.StatusCreated: typeOf[backupReport]()}},
	{pattern: "GET /v1/healthz", id: "healthz", summary: "Say the server is up and which services it lacks.",
		responses: map[int]respBody{http.StatusOK: typeOf[healthReport]()}},
	{pattern: "GET " + versionPath, id: "version", summary: "Say which recall this is: module version, commit, build date and Go version.",
		responses: map[int]respBody{http.StatusOK: typeOf[buildinfo.Info]()}},
	{pattern: "GET " + openAPIPath, id: "openapi", summary: "This document.",
		responses: map[int]respBody{http.StatusOK: typeOf[map[string]any]()}},
})

// actionRoutes documents the maintenance actions of entryActions.
func actionRoutes() []routeDoc {
	var out []routeDoc
	for _, a := range entryActions {
		out = append(out, routeDoc{pattern: "POST /v1/memories/{id}/" + a.name, id: a.name + "Memory", summary: a.summary,
			params: memoryRef, body: typeOf[actionBody](), optional: true, responses: map[int]respBody{http.StatusOK: typeOf[engine.Applied]()}})
	}
	return out
}
