package engine

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/recall-mem/recall"
)

// verify counts and checksums every kind of rows on both sides into rep.
func verifyCopy(ctx context.Context, src, dst *migrateSide, o MigrateOptions, rep *MigrateReport) error {
	rep.Verified = true
	for i := range rep.Kinds {
		k := &rep.Kinds[i]
		var err error
		// Vectors are compared as the target keeps them.
		keep := dst.copier.StoredVector
		if k.Source, k.SourceChecksum, err = rowsChecksum(ctx, src.copier, k.Kind, k.Copied, keep, o); err != nil {
			return err
		}
		if k.Target, k.TargetChecksum, err = rowsChecksum(ctx, dst.copier, k.Kind, k.Copied, keep, o); err != nil {
			return err
		}
		k.Match = k.Source == k.Target && k.SourceChecksum == k.TargetChecksum
		rep.Verified = rep.Verified && k.Match
	}
	return nil
}

// rowsChecksum counts the rows of kind and sums their digests: the sum
// does not depend on the order rows come in, which differs between
// backends (text ids sort by the database's collation). expect is how
// many rows the progress reports should expect.
func rowsChecksum(ctx context.Context, c recall.StoreCopier, kind recall.CopyKind, expect int, keep func([]float32) []float32, o MigrateOptions) (int, string, error) {
	var sum [4]uint64
	n := 0
	err := c.DumpRows(ctx, kind, o.BatchSize, func(b *recall.CopyBatch) error {
		b.Meta = withoutMark(b.Meta)
		for _, row := range canonicalRows(b, keep) {
			text, err := json.Marshal(row)
			if err != nil {
				return fmt.Errorf("checksum %s: %w", kind, err)
			}
			d := sha256.Sum256(text)
			for i := range sum {
				sum[i] += binary.BigEndian.Uint64(d[i*8:])
			}
			n++
		}
		tellProgress(o.Progress, "verify", kind, n, expect)
		return nil
	})
	if err != nil {
		return 0, "", fmt.Errorf("verify %s: %w", kind, err)
	}
	var out [32]byte
	for i, v := range sum {
		binary.BigEndian.PutUint64(out[i*8:], v)
	}
	return n, fmt.Sprintf("%x", out), nil
}

// canonicalRows returns the rows of b as both backends hold the same
// data: times in UTC to the millisecond (SQLite's precision), JSON
// metadata compact, a rollup's sources in order, vectors as keep stores
// them (the target's precision). Anything else that differs is a
// difference.
func canonicalRows(b *recall.CopyBatch, keep func([]float32) []float32) []any {
	var out []any
	for _, m := range b.Memories {
		out = append(out, canonicalMemory(m))
	}
	for _, v := range b.Versions {
		c := *v
		c.ChangedAt = milli(c.ChangedAt)
		if c.Memory != nil {
			c.Memory = canonicalMemory(c.Memory)
		}
		out = append(out, &c)
	}
	for _, o := range b.Observations {
		c := *o
		c.At, c.Metadata = milli(c.At), compactJSON(c.Metadata)
		out = append(out, &c)
	}
	for _, s := range b.Sessions {
		c := *s
		c.StartedAt, c.EndedAt = milli(c.StartedAt), milliPtr(c.EndedAt)
		out = append(out, &c)
	}
	for _, r := range b.Rollups {
		out = append(out, canonicalRollup(r))
	}
	for _, v := range b.Vectors {
		c := *v
		c.Vec = keep(v.Vec)
		out = append(out, &c)
	}
	for _, r := range b.SyncRecords {
		out = append(out, r)
	}
	for _, m := range b.Meta {
		out = append(out, m)
	}
	for _, l := range b.ForgetLog {
		c := l
		c.At = milli(c.At)
		// PostgreSQL keeps the counts as jsonb, its keys in its own order.
		var counts map[string]any
		if json.Unmarshal(l.Counts, &counts) == nil {
			c.Counts, _ = json.Marshal(counts)
		}
		out = append(out, c)
	}
	return out
}

func canonicalMemory(m *recall.Memory) *recall.Memory {
	c := *m
	c.CreatedAt, c.UpdatedAt, c.OccurredAt = milli(c.CreatedAt), milli(c.UpdatedAt), milli(c.OccurredAt)
	c.ReviewedAt, c.SnoozedUntil = milliPtr(c.ReviewedAt), milliPtr(c.SnoozedUntil)
	c.Metadata = compactJSON(c.Metadata)
	return &c
}

func canonicalRollup(r *recall.Rollup) *recall.Rollup {
	c := *r
	c.BucketStart, c.BucketEnd, c.LatestAt = milli(c.BucketStart), milli(c.BucketEnd), milli(c.LatestAt)
	c.CreatedAt, c.UpdatedAt, c.RolledAt = milli(c.CreatedAt), milli(c.UpdatedAt), milliPtr(c.RolledAt)
	c.Values = append([]recall.RollupValue(nil), r.Values...)
	for i := range c.Values {
		c.Values[i].Last = milli(c.Values[i].Last)
	}
	// Only a source's kind and id are stored.
	c.Sources = nil
	for _, s := range r.Sources {
		c.Sources = append(c.Sources, recall.RollupSource{Kind: s.Kind, ID: s.ID})
	}
	sort.Slice(c.Sources, func(i, j int) bool {
		a, b := c.Sources[i], c.Sources[j]
		return a.Kind < b.Kind || (a.Kind == b.Kind && a.ID < b.ID)
	})
	return &c
}

func milli(t time.Time) time.Time { return t.UTC().Truncate(time.Millisecond) }

func milliPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := milli(*t)
	return &u
}

func compactJSON(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || string(raw) == "{}" || string(raw) == "null" {
		return nil
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}
