package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/recall-mem/recall"
)

// A batch of new memories (ImportMemories) is written with two COPYs, one
// for the rows and one for their first versions, after one query for the
// pinned titles and one for the keys it would clash with: a constant
// number of round trips and statements for any size of batch. One
// statement per row (even pipelined) cost the server an executor start
// and a round of index upkeep for each, and held batched ingest to a few
// thousand memories a second.

// memoryCopyColumns are the columns a COPY of memories fills, in the order
// of copyRow.
var memoryCopyColumns = append([]string{"namespace", "id"}, strings.Fields(strings.ReplaceAll(memoryColumnNames, ",", " "))...)

// versionCopyColumns are the columns a COPY of versions fills.
var versionCopyColumns = []string{"namespace", "memory_id", "version", "op", "changed_at", "snapshot"}

// insertAll inserts new memories and their first versions; at holds each
// one's position in the caller's list, for messages. A clash on a key
// fails the whole transaction.
func (tx *Tx) insertAll(ctx context.Context, ms []*recall.Memory, at []int, op string) error {
	if len(ms) == 0 {
		return nil
	}
	for _, m := range ms {
		fillDefaults(m, tx.now)
		if m.Confidence == 0 {
			m.Confidence = 1
		}
		if m.Version == 0 {
			m.Version = 1
		}
	}
	if err := tx.checkPinTitles(ctx, ms, at); err != nil {
		return err
	}
	if err := tx.checkKeys(ctx, ms, at); err != nil {
		return err
	}
	rows := make([][]any, len(ms))
	versions := make([][]any, len(ms))
	for i, m := range ms {
		snap, err := json.Marshal(m)
		if err != nil {
			return fmt.Errorf("snapshot: %w", err)
		}
		rows[i] = append([]any{tx.db.Namespace, m.ID}, memoryValues(m)...)
		versions[i] = []any{tx.db.Namespace, m.ID, m.Version, op, tx.now, string(snap)}
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"memories"}, memoryCopyColumns, pgx.CopyFromRows(rows)); err != nil {
		return copyError(err)
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"memory_versions"}, versionCopyColumns, pgx.CopyFromRows(versions)); err != nil {
		return copyError(err)
	}
	return nil
}

// copyError explains a failed COPY. The keys and ids were checked before
// it, so a clash is another writer's doing meanwhile.
func copyError(err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "23505" {
		return &copyClash{err: recall.Errorf(recall.ECONFLICT, "Another writer took a key or id of the import meanwhile (%s): run the import again. Nothing was imported.", pe.Detail)}
	}
	return fmt.Errorf("insert memories: %w", err)
}

// copyClash is a COPY's clash on a key or id, which ImportMemories tells
// from other conflicts: one on an id it drew is drawn again.
type copyClash struct{ err *recall.Error }

func (c *copyClash) Error() string { return c.err.Error() }
func (c *copyClash) Unwrap() error { return c.err }

// checkPinTitles refuses pinned memories whose title another pinned
// memory has, in the batch or in the store, with one query for all.
func (tx *Tx) checkPinTitles(ctx context.Context, ms []*recall.Memory, at []int) error {
	first := map[string]int{} // lower-case title → index in ms
	var titles, ids []string
	for i, m := range ms {
		if !m.Pinned || m.Title == "" {
			continue
		}
		title := strings.ToLower(m.Title)
		if j, ok := first[title]; ok {
			return importError(at[i], m, pinConflict(m.Title, ms[j].ID))
		}
		first[title] = i
		titles, ids = append(titles, title), append(ids, m.ID)
	}
	if len(titles) == 0 {
		return nil
	}
	var title, other string
	err := tx.QueryRow(ctx, `SELECT lower(title), id FROM memories WHERE namespace = $1 AND pinned
		AND lower(title) = ANY($2::text[]) AND NOT id = ANY($3::text[]) ORDER BY seq LIMIT 1`,
		tx.db.Namespace, titles, ids).Scan(&title, &other)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	} else if err != nil {
		return fmt.Errorf("check pinned titles: %w", err)
	}
	i := first[title]
	return importError(at[i], ms[i], pinConflict(ms[i].Title, other))
}

// pinConflict is the error of a second pinned memory titled title.
func pinConflict(title, other string) error {
	return recall.Errorf(recall.ECONFLICT, "A memory titled %q is already pinned (%s): update that one or choose another title.", title, other)
}

// checkKeys refuses memories whose key is taken in their collection, in
// the batch or in the store, with one query for all.
func (tx *Tx) checkKeys(ctx context.Context, ms []*recall.Memory, at []int) error {
	first := map[[2]string]int{}
	var cols, keys []string
	for i, m := range ms {
		if m.Key == "" {
			continue
		}
		k := [2]string{m.Collection, m.Key}
		if _, ok := first[k]; ok {
			return importError(at[i], m, keyConflict(m))
		}
		first[k] = i
		cols, keys = append(cols, m.Collection), append(keys, m.Key)
	}
	if len(keys) == 0 {
		return nil
	}
	var col, key string
	err := tx.QueryRow(ctx, `SELECT m.collection, m.key FROM memories m
		JOIN unnest($2::text[], $3::text[]) AS k(collection, key) ON m.collection = k.collection AND m.key = k.key
		WHERE m.namespace = $1 LIMIT 1`, tx.db.Namespace, cols, keys).Scan(&col, &key)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	} else if err != nil {
		return fmt.Errorf("check keys: %w", err)
	}
	i := first[[2]string{col, key}]
	return importError(at[i], ms[i], keyConflict(ms[i]))
}

// keyConflict is the error of a memory whose key is taken.
func keyConflict(m *recall.Memory) error {
	return recall.Errorf(recall.ECONFLICT, "Key %q is already used in collection %q: choose another key.", m.Key, m.Collection)
}
