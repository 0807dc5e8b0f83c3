package httpapi

import (
	"context"
	"io"
	"net/url"
	"strconv"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/maintain"
)

// The client's side of the routes beyond the service interfaces: history,
// the workspace, rollups, forgetting and the store's upkeep. Each method
// is one route and mirrors the engine method of the same name.

// fetch does one request and returns its decoded answer.
func fetch[T any](ctx context.Context, c *Client, method, path string, body any) (*T, error) {
	var out T
	if err := c.do(ctx, method, path, nil, body, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Diff returns the unified diff between versions from and to of the
// memory ref; 0 means the server's default (to the current version, from
// the one before to).
func (c *Client) Diff(ctx context.Context, ref string, from, to int) (string, error) {
	q := url.Values{}
	if from > 0 {
		q.Set("from", strconv.Itoa(from))
	}
	if to > 0 {
		q.Set("to", strconv.Itoa(to))
	}
	var d diffReport
	err := c.do(ctx, "GET", memoryPath(ref, "/diff"), q, nil, &d)
	return d.Diff, err
}

// Act carries out a maintenance action (pin, unpin, snooze, demote,
// archive, supersede, review) on the memory ref; days is the snooze length
// (0: the default).
func (c *Client) Act(ctx context.Context, ref, action string, days int) (*engine.Applied, error) {
	return fetch[engine.Applied](ctx, c, "POST", memoryPath(ref, "/"+action), actionBody{Days: days})
}

// PlanSync says what Sync would change, writing nothing.
func (c *Client) PlanSync(ctx context.Context) (*engine.SyncReport, error) {
	return fetch[engine.SyncReport](ctx, c, "GET", "/v1/sync/plan", nil)
}

// Sync reconciles the server's project files and its store.
func (c *Client) Sync(ctx context.Context) (*engine.SyncReport, error) {
	return fetch[engine.SyncReport](ctx, c, "POST", "/v1/sync", syncBody{})
}

// ApplyMaintenance syncs, plans and applies choices (then, with
// recommended, the plan's recommendations) on the server's project.
func (c *Client) ApplyMaintenance(ctx context.Context, choices []maintain.Choice, recommended bool, snoozeDays int) (*engine.MaintainResult, error) {
	b := maintainBody{Recommended: recommended, SnoozeDays: snoozeDays}
	for _, ch := range choices {
		b.Choices = append(b.Choices, choiceBody{ID: ch.ID, Action: ch.Action})
	}
	return fetch[engine.MaintainResult](ctx, c, "POST", "/v1/maintain/apply", b)
}

// RunRollups rolls raw entries up into the time tiers (or, with dryRun,
// says what it would write).
func (c *Client) RunRollups(ctx context.Context, dryRun bool) (*recall.RollupReport, error) {
	return fetch[recall.RollupReport](ctx, c, "POST", "/v1/rollups/run", rollupBody{DryRun: dryRun})
}

// Tiers counts raw entries and rollups per tier.
func (c *Client) Tiers(ctx context.Context) ([]recall.TierStat, error) {
	var out tierList
	err := c.do(ctx, "GET", "/v1/tiers", nil, nil, &out)
	return out.Tiers, err
}

// purgeBodyFrom is the request for criteria; the server resolves
// OlderThanDays against its clock.
func purgeBodyFrom(cr recall.PurgeCriteria) purgeBody {
	b := purgeBody{Before: cr.Before, Project: cr.Project, Session: cr.Session, ObservationID: cr.ObservationID, MemoryID: cr.MemoryID,
		Type: cr.Type, OlderThanDays: cr.OlderThanDays, Match: cr.Match, Memories: cr.Memories}
	if cr.Search != "" {
		b.Search = &cr.Search
	}
	return b
}

// PlanPurge counts what Purge would remove, with up to sample matches.
func (c *Client) PlanPurge(ctx context.Context, cr recall.PurgeCriteria, sample int) (*recall.PurgeReport, error) {
	b := purgeBodyFrom(cr)
	b.DryRun, b.Sample = true, sample
	return fetch[recall.PurgeReport](ctx, c, "POST", "/v1/purge", b)
}

// Purge deletes what cr matches, for good.
func (c *Client) Purge(ctx context.Context, cr recall.PurgeCriteria) (*recall.PurgeReport, error) {
	b := purgeBodyFrom(cr)
	b.Confirm = true
	return fetch[recall.PurgeReport](ctx, c, "POST", "/v1/purge", b)
}

// Sweep applies the server's retention policy now (with dryRun, only
// counts).
func (c *Client) Sweep(ctx context.Context, dryRun bool) (*recall.SweepReport, error) {
	return fetch[recall.SweepReport](ctx, c, "POST", "/v1/sweep", sweepBody{DryRun: dryRun})
}

// Stats counts the store's rows and measures its files.
func (c *Client) Stats(ctx context.Context) (*recall.StoreStats, error) {
	return fetch[recall.StoreStats](ctx, c, "GET", "/v1/stats", nil)
}

// ReindexStatus reports the embedding coverage and the queue.
func (c *Client) ReindexStatus(ctx context.Context) (*recall.VectorStats, error) {
	return fetch[recall.VectorStats](ctx, c, "GET", "/v1/reindex/status", nil)
}

// Doctor runs the server's store checks.
func (c *Client) Doctor(ctx context.Context) ([]engine.Check, error) {
	var out doctorReport
	err := c.do(ctx, "GET", "/v1/doctor", nil, nil, &out)
	return out.Checks, err
}

// Export writes the memories matching f to w as JSON Lines, oldest first.
func (c *Client) Export(ctx context.Context, f recall.MemoryFilter, w io.Writer) error {
	q := url.Values{}
	encodeFilter(q, f)
	return c.do(ctx, "GET", "/v1/export", q, nil, w)
}

// Backup has the server write a copy of its store under the store's
// backups/ directory; it returns the path on the server's machine.
func (c *Client) Backup(ctx context.Context) (string, recall.BackupCounts, error) {
	var out backupReport
	err := c.do(ctx, "POST", "/v1/backup", nil, nil, &out)
	return out.Path, out.Counts, err
}
