package engine

import (
	"context"
	"fmt"
	"net/url"
	"sort"
	"strings"

	"github.com/recall-mem/recall"
)

// MigrateOptions says where `recall migrate` copies: from the open store
// to To, or from From into the open store. One of the two is set.
type MigrateOptions struct {
	To, From string
	// BatchSize is how many rows go over in one transaction; 0 means the
	// backend's default.
	BatchSize int
	// Progress hears, after each batch, how far the copy (or the check
	// after it, Phase "verify") of a kind has come.
	Progress func(MigrateProgress)
}

// MigrateProgress is how far a migration has come in one kind of rows.
type MigrateProgress struct {
	Phase string          `json:"phase"` // copy or verify
	Kind  recall.CopyKind `json:"kind"`
	Done  int             `json:"done"`
	Total int             `json:"total"`
}

// MigrateReport is what a migration copied and what the check after it
// found.
type MigrateReport struct {
	From  string        `json:"from"` // without passwords
	To    string        `json:"to"`
	Kinds []MigrateKind `json:"kinds"`
	// Resumed is true when the target held an earlier, interrupted or
	// finished, copy of the same source.
	Resumed bool `json:"resumed"`
	// Verified is true when every kind has the same count and checksum
	// on both sides.
	Verified bool `json:"verified"`
	// VectorModels are the embedding models of the vectors copied.
	VectorModels []string `json:"vector_models,omitempty"`
	// TargetModel is the model the target embeds with, when the target is
	// the open store (--from) and has an embedder; "" otherwise.
	TargetModel string `json:"target_model,omitempty"`
}

// Reembed reports whether the target must embed again: it embeds with
// another model than some of the vectors copied.
func (r *MigrateReport) Reembed() bool {
	for _, m := range r.VectorModels {
		if r.TargetModel != "" && m != r.TargetModel {
			return true
		}
	}
	return false
}

// MigrateKind is one kind of rows: how many were copied and the counts
// and checksums of both stores afterwards.
type MigrateKind struct {
	Kind           recall.CopyKind `json:"kind"`
	Copied         int             `json:"copied"`
	Source         int             `json:"source"`
	Target         int             `json:"target"`
	SourceChecksum string          `json:"source_checksum"`
	TargetChecksum string          `json:"target_checksum"`
	Match          bool            `json:"match"`
}

// migrateMark is the target's store fact naming the source it is a copy
// of: a target holding data may only be written again by a copy of the
// same source (a resumed or repeated migration).
const migrateMark = "migrated_from"

// Migrate copies every row of one store into another (see StoreCopier),
// then checks that both hold the same rows, kind by kind. Running it
// again after an interruption finishes the copy: rows replace their
// copies by id. It refuses, changing nothing, a target that holds other
// data, a source that is the target, and a store it cannot open.
func (e *Engine) Migrate(ctx context.Context, o MigrateOptions) (*MigrateReport, error) {
	src, dst, closeOther, err := e.openMigration(ctx, o)
	if err != nil {
		return nil, err
	}
	defer closeOther()
	rep := &MigrateReport{From: src.name, To: dst.name}
	if rep.Resumed, err = checkTarget(ctx, src, dst); err != nil {
		return nil, err
	}
	if err := dst.copier.LoadRows(ctx, &recall.CopyBatch{Meta: []recall.MetaRow{{Key: migrateMark, Value: src.name}}}); err != nil {
		return nil, err
	}
	models := map[string]bool{}
	for _, kind := range recall.CopyKinds {
		k := MigrateKind{Kind: kind}
		total, err := src.copier.CountRows(ctx, kind)
		if err != nil {
			return nil, err
		}
		tellProgress(o.Progress, "copy", kind, 0, total)
		err = src.copier.DumpRows(ctx, kind, o.BatchSize, func(b *recall.CopyBatch) error {
			b.Meta = withoutMark(b.Meta)
			if err := dst.copier.LoadRows(ctx, b); err != nil {
				return err
			}
			for _, v := range b.Vectors {
				models[v.Model] = true
			}
			k.Copied += b.Len()
			tellProgress(o.Progress, "copy", kind, k.Copied, total)
			return nil
		})
		if err != nil {
			return nil, copyFailed(ctx, err, kind, src, dst)
		}
		rep.Kinds = append(rep.Kinds, k)
	}
	if err := dst.copier.FinishLoad(ctx); err != nil {
		return nil, err
	}
	for m := range models {
		rep.VectorModels = append(rep.VectorModels, m)
	}
	sort.Strings(rep.VectorModels)
	if o.From != "" && e.vec != nil {
		rep.TargetModel = e.vec.EmbedderModel()
	}
	if err := verifyCopy(ctx, src, dst, o, rep); err != nil {
		return nil, err
	}
	if !rep.Verified {
		var bad []string
		for _, k := range rep.Kinds {
			if !k.Match {
				bad = append(bad, fmt.Sprintf("%s (%d in the source, %d in the target)", k.Kind, k.Source, k.Target))
			}
		}
		return rep, recall.Errorf(recall.ECONFLICT, "The copy in %s differs from %s in %s: was the source written to during the copy? Stop the agents and servers using it and run the same `recall migrate` again.",
			dst.name, src.name, strings.Join(bad, ", "))
	}
	return rep, nil
}

// checkTarget refuses a target that holds data other than an earlier copy
// of src, and reports whether it holds such a copy.
func checkTarget(ctx context.Context, src, dst *migrateSide) (bool, error) {
	var held []string
	for _, kind := range recall.CopyKinds {
		n, err := dst.copier.CountRows(ctx, kind)
		if err != nil {
			return false, err
		}
		if kind == recall.CopyMeta {
			continue // store facts alone (a fresh store's) are no data
		}
		if n > 0 {
			held = append(held, fmt.Sprintf("%d %s", n, kind))
		}
	}
	if len(held) == 0 {
		return false, nil
	}
	mark, err := dst.store.Tiers().StoreMeta(ctx, migrateMark)
	if err != nil {
		return false, err
	}
	if mark == src.name {
		return true, nil
	}
	from := "another store, or written to directly"
	if mark != "" {
		from = "a copy of " + mark
	}
	return false, recall.Errorf(recall.ECONFLICT, "The target %s already holds data (%s; %s): nothing was copied. Migrate into an empty store (a new directory, or another namespace: postgres://…/dbname?namespace=NAME), or back the target up and clear it first.",
		dst.name, strings.Join(held, ", "), from)
}

// copyFailed says what to do after a copy stopped in the middle of kind:
// run it again, once the cause is fixed. The cause's own words are kept,
// without the passwords of either store's URL.
func copyFailed(ctx context.Context, err error, kind recall.CopyKind, src, dst *migrateSide) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%w (%w)", recall.Errorf(recall.EUNAVAILABLE, "The migration to %s was interrupted while copying %s: what was copied stays there; run the same command again to finish it.", dst.name, kind), ctx.Err())
	}
	if recall.ErrorCode(err) != recall.EINTERNAL {
		return err
	}
	msg := err.Error()
	for _, side := range []*migrateSide{src, dst} {
		if u, perr := url.Parse(side.path); perr == nil {
			pw, _ := u.User.Password()
			for _, secret := range []string{pw, u.Query().Get("password")} {
				if secret != "" {
					msg = strings.ReplaceAll(msg, secret, "xxxxx")
				}
			}
		}
	}
	return fmt.Errorf("%w (%w)", recall.Errorf(recall.EUNAVAILABLE, "Copying %s from %s to %s failed: %s. What was copied stays; fix the cause and run the same command again.", kind, src.name, dst.name, msg), err)
}

// withoutMark leaves the migration mark out of store facts: a copy of a
// copy names its own source.
func withoutMark(meta []recall.MetaRow) []recall.MetaRow {
	out := meta[:0:0]
	for _, m := range meta {
		if m.Key != migrateMark {
			out = append(out, m)
		}
	}
	return out
}

func tellProgress(fn func(MigrateProgress), phase string, kind recall.CopyKind, done, total int) {
	if fn != nil {
		fn(MigrateProgress{Phase: phase, Kind: kind, Done: done, Total: total})
	}
}
