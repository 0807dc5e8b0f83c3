package mcp

import (
	"context"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/forget"
)

type dryRunIn struct {
	DryRun bool `json:"dry_run,omitempty" jsonschema:"count what would happen and change nothing"`
}

type rollupOut struct {
	DryRun    bool           `json:"dry_run"`
	Buckets   map[string]int `json:"buckets" jsonschema:"closed buckets processed, per bucket type"`
	Rollups   map[string]int `json:"rollups" jsonschema:"rollups written, per bucket type"`
	Compacted int            `json:"compacted" jsonschema:"raw entries marked compacted"`
	Pruned    int            `json:"pruned" jsonschema:"fine rollups removed past their keep period"`
	Done      bool           `json:"done" jsonschema:"false when it stopped early; call again to go on"`
}

type tiersOut struct {
	Tiers []recall.TierStat `json:"tiers"`
}

// purgeIn are purge's filters, named as the CLI's flags. They combine
// with AND; at least one is required.
type purgeIn struct {
	Search        string `json:"search,omitempty" jsonschema:"entries holding every word of this text (for memories, in any version); never logged"`
	Match         string `json:"match,omitempty" jsonschema:"how search matches: words (default), prefix or substring"`
	Before        string `json:"before,omitempty" jsonschema:"observations recorded, or memories created, before this time (RFC 3339)"`
	Project       string `json:"project,omitempty"`
	Session       string `json:"session,omitempty" jsonschema:"observations of this session"`
	ID            string `json:"id,omitempty" jsonschema:"one observation number, or one memory id (with all its versions)"`
	Type          string `json:"type,omitempty" jsonschema:"entries of this type"`
	OlderThanDays *int   `json:"older_than_days,omitempty" jsonschema:"with type: entries older than this many days"`
	Memories      bool   `json:"memories,omitempty" jsonschema:"purge memories and all their versions instead of observations"`
}

type purgePlanIn struct {
	purgeIn
	Sample int `json:"sample,omitempty" jsonschema:"show up to this many matches (default 10, at most 100)"`
}

type purgeConfirmIn struct {
	purgeIn
	Confirm bool `json:"confirm" jsonschema:"must be true: the purge deletes for good, with no undo and no history"`
}

type reindexOut struct {
	Model       string `json:"model" jsonschema:"the configured embedder"`
	StoredModel string `json:"stored_model,omitempty" jsonschema:"the model of the stored vectors"`
	Memories    int    `json:"memories"`
	Embedded    int    `json:"embedded" jsonschema:"memories whose current version has vectors of the configured model"`
	Vectors     int    `json:"vectors" jsonschema:"passages with vectors"`
	Queued      int    `json:"queued" jsonschema:"memories waiting to be embedded"`
	Failing     int    `json:"failing" jsonschema:"queued memories whose last attempt failed"`
	LastError   string `json:"last_error,omitempty"`
}

type doctorOut struct {
	OK     bool           `json:"ok" jsonschema:"false when any check failed"`
	Checks []engine.Check `json:"checks"`
}

type backupOut struct {
	Path   string              `json:"path" jsonschema:"the backup file, in the store's backups directory"`
	Counts recall.BackupCounts `json:"counts" jsonschema:"what the backup holds"`
}

func (t *tools) addStoreTools(s *sdk.Server) {
	sdk.AddTool(s, &sdk.Tool{Name: "rollup_run", Annotations: writes("Run rollups", false, true),
		Description: "Roll closed time buckets of observations up into summaries, as `recall rollup` does (4-hour, daily, weekly, monthly), marking the summarised raw entries compacted. Safe to call again: it resumes where it stopped. dry_run counts without writing."}, t.rollup)
	sdk.AddTool(s, &sdk.Tool{Name: "store_tiers", Annotations: readOnly("Tiers"),
		Description: "Count the store's raw entries (memories, observations) and rollups per tier and status, with their time span, size and token estimate, as `recall tiers` does."}, t.tiers)
	sdk.AddTool(s, &sdk.Tool{Name: "store_purge_plan", Annotations: readOnly("Plan a purge"),
		Description: "Show what store_purge would delete for the same filters, deleting nothing: counts of observations, memories, versions, sessions and rollups, and a sample of matches, as `recall purge` without --confirm does. Filters combine with AND; at least one is required."}, t.purgePlan)
	sdk.AddTool(s, &sdk.Tool{Name: "store_purge", Annotations: writes("Purge for good", true, true),
		Description: "Delete what the filters match completely and for good, as `recall purge --confirm` does: no undo and no history; the text is in no file of the store afterwards (secure delete, index merge, vacuum), and rollups, session texts and markdown views holding it are rewritten. Observations by default; memories with memories true or a memory id. Requires confirm true. Call store_purge_plan first and purge only what the user asked to remove (a leaked secret, a project)."}, t.purge)
	sdk.AddTool(s, &sdk.Tool{Name: "store_sweep", Annotations: writes("Retention sweep", true, true),
		Description: "Apply the retention policy ([retention] in config.toml) now, as `recall sweep` does: observations older than their type's retention go, pinned ones and rollup sources stay; deletes nothing while retention is off, except rolled-up raw observations past raw retention. dry_run counts without deleting."}, t.sweep)
	sdk.AddTool(s, &sdk.Tool{Name: "store_stats", Annotations: readOnly("Store statistics"),
		Description: "Count the store's rows (observations by type, memories by tier, versions, sessions) and measure its files, with 30-day growth, a one-year projection and retention advice, as `recall stats` does."}, t.stats)
	sdk.AddTool(s, &sdk.Tool{Name: "store_reindex_status", Annotations: readOnly("Embedding status"),
		Description: "Report embedding coverage, as `recall reindex --status` does: the configured model, how many memories have current vectors, how many wait in the queue or fail, and the last error."}, t.reindexStatus)
	sdk.AddTool(s, &sdk.Tool{Name: "store_doctor", Annotations: readOnly("Check the store"),
		Description: "Run the store's health checks, as `recall doctor` does: file and database integrity, orphans, markdown views, embedding, permissions, hooks and git. Each check has a status (ok, info, warn, fail) and details saying what to do."}, t.doctor)
	sdk.AddTool(s, &sdk.Tool{Name: "store_backup", Annotations: writes("Back up the store", false, false),
		Description: "Write a consistent, checked copy of the whole store (every memory with its history, observations, sessions, rollups, vectors) to a new file in the store's backups directory, as `recall backup` does, and return its path and counts. The location is fixed: it never overwrites anything."}, t.backup)
}

func (t *tools) rollup(ctx context.Context, _ *sdk.CallToolRequest, in dryRunIn) (*sdk.CallToolResult, rollupOut, error) {
	rep, err := t.eng.RunRollups(ctx, recall.RollupRun{Now: t.now(), DryRun: in.DryRun})
	if err != nil {
		return nil, rollupOut{}, t.fail(ctx, "rollup_run", err, "")
	}
	return nil, rollupOut{DryRun: rep.DryRun, Buckets: rep.Buckets, Rollups: rep.Rollups, Compacted: rep.Compacted, Pruned: rep.Pruned, Done: rep.Done}, nil
}

func (t *tools) tiers(ctx context.Context, _ *sdk.CallToolRequest, _ noArgs) (*sdk.CallToolResult, tiersOut, error) {
	st, err := t.eng.Tiers(ctx)
	if err != nil {
		return nil, tiersOut{}, t.fail(ctx, "store_tiers", err, "")
	}
	if st == nil {
		st = []recall.TierStat{}
	}
	return nil, tiersOut{Tiers: st}, nil
}

// criteria checks the filters as `recall purge` does.
func (in purgeIn) criteria(now time.Time) (recall.PurgeCriteria, error) {
	c := recall.PurgeCriteria{Project: in.Project, Session: in.Session, Type: in.Type, Search: in.Search, Match: in.Match,
		Memories: in.Memories, OlderThanDays: in.OlderThanDays}
	if in.Before != "" {
		at, err := time.Parse(time.RFC3339, in.Before)
		if err != nil {
			return c, recall.Errorf(recall.EINVALID, "Invalid before %q: use an RFC 3339 time like 2026-01-02T15:04:05Z.", in.Before)
		}
		c.Before = &at
	}
	if in.ID != "" {
		var err error
		if c.ObservationID, c.MemoryID, err = forget.ParseID(in.ID); err != nil {
			return c, err
		}
	}
	return c, forget.Resolve(&c, now)
}

func (t *tools) purgePlan(ctx context.Context, _ *sdk.CallToolRequest, in purgePlanIn) (*sdk.CallToolResult, *recall.PurgeReport, error) {
	c, err := in.criteria(t.now())
	if err != nil {
		return nil, nil, t.fail(ctx, "store_purge_plan", err, "")
	}
	rep, err := t.eng.PlanPurge(ctx, c, clamp(in.Sample, 10, 100))
	if err != nil {
		return nil, nil, t.fail(ctx, "store_purge_plan", err, "")
	}
	return nil, rep, nil
}

func (t *tools) purge(ctx context.Context, _ *sdk.CallToolRequest, in purgeConfirmIn) (*sdk.CallToolResult, *recall.PurgeReport, error) {
	if !in.Confirm {
		return nil, nil, t.fail(ctx, "store_purge", recall.Errorf(recall.EINVALID, "store_purge deletes for good and needs confirm true; nothing was deleted. Call store_purge_plan to see what it would delete."), "")
	}
	c, err := in.criteria(t.now())
	if err != nil {
		return nil, nil, t.fail(ctx, "store_purge", err, "")
	}
	rep, err := t.eng.Purge(ctx, c)
	if err != nil {
		return nil, nil, t.fail(ctx, "store_purge", err, "")
	}
	return nil, rep, nil
}

func (t *tools) sweep(ctx context.Context, _ *sdk.CallToolRequest, in dryRunIn) (*sdk.CallToolResult, *recall.SweepReport, error) {
	rep, err := t.eng.SweepAt(ctx, t.now(), in.DryRun)
	if err != nil {
		return nil, nil, t.fail(ctx, "store_sweep", err, "")
	}
	return nil, rep, nil
}

func (t *tools) stats(ctx context.Context, _ *sdk.CallToolRequest, _ noArgs) (*sdk.CallToolResult, *recall.StoreStats, error) {
	st, err := t.eng.Stats(ctx, t.now())
	if err != nil {
		return nil, nil, t.fail(ctx, "store_stats", err, "")
	}
	return nil, st, nil
}

func (t *tools) reindexStatus(ctx context.Context, _ *sdk.CallToolRequest, _ noArgs) (*sdk.CallToolResult, reindexOut, error) {
	st, err := t.eng.ReindexStatus(ctx)
	if err != nil {
		return nil, reindexOut{}, t.fail(ctx, "store_reindex_status", err, "")
	}
	return nil, reindexOut{Model: st.Model, StoredModel: st.StoredModel, Memories: st.Memories, Embedded: st.Embedded, Vectors: st.Vectors,
		Queued: st.Queued, Failing: st.Failing, LastError: st.LastError}, nil
}

func (t *tools) doctor(ctx context.Context, _ *sdk.CallToolRequest, _ noArgs) (*sdk.CallToolResult, doctorOut, error) {
	checks, err := t.eng.Doctor(ctx)
	if err != nil {
		return nil, doctorOut{}, t.fail(ctx, "store_doctor", err, "")
	}
	out := doctorOut{OK: true, Checks: checks}
	for _, c := range checks {
		if c.Status == engine.CheckFail {
			out.OK = false
		}
	}
	return nil, out, nil
}

func (t *tools) backup(ctx context.Context, _ *sdk.CallToolRequest, _ noArgs) (*sdk.CallToolResult, backupOut, error) {
	path, counts, err := t.eng.BackupInStore(ctx, t.now())
	if err != nil {
		return nil, backupOut{}, t.fail(ctx, "store_backup", err, "")
	}
	return nil, backupOut{Path: path, Counts: counts}, nil
}
