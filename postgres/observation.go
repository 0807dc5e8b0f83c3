package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/redact"
)

// ObservationService stores observations in PostgreSQL, in the store's
// namespace.
type ObservationService struct {
	db *DB
}

var _ recall.ObservationService = (*ObservationService)(nil)

// NewObservationService returns an ObservationService over db.
func NewObservationService(db *DB) *ObservationService { return &ObservationService{db: db} }

// RecordObservations writes all observations in one transaction and sets
// their ids, which increase in the order given.
func (s *ObservationService) RecordObservations(ctx context.Context, obs []*recall.Observation) error {
	for i, o := range obs {
		if err := s.db.checkObservation(o); err != nil {
			if len(obs) > 1 {
				return recall.Errorf(recall.ErrorCode(err), "Observation %d: %s Nothing was recorded.", i+1, recall.ErrorMessage(err))
			}
			return err
		}
	}
	return s.db.tx(ctx, func(tx *Tx) error {
		batch := &pgx.Batch{}
		for _, o := range obs {
			if o.At.IsZero() {
				o.At = tx.now
			}
			o.At = o.At.UTC()
			batch.Queue(`INSERT INTO observations (namespace, at, type, key, session, project, tool, file, content, metadata, status, pinned)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::json, $11, $12) RETURNING id`,
				tx.db.Namespace, o.At, o.Type, o.Key, o.Session, o.Project, o.Tool, o.File, o.Content, jsonObject(o.Metadata), o.Status, o.Pinned)
		}
		res := tx.SendBatch(ctx, batch)
		for _, o := range obs {
			if err := res.QueryRow().Scan(&o.ID); err != nil {
				res.Close()
				return fmt.Errorf("insert observation: %w", err)
			}
		}
		return res.Close()
	})
}

// checkObservation validates an observation with the SQLite store's rules
// and fills its status.
func (db *DB) checkObservation(o *recall.Observation) error {
	if err := o.CheckUTF8(); err != nil {
		return err
	}
	if o.Type == "" || len(o.Type) > 64 || strings.ContainsAny(o.Type, " \t\n/\\") {
		return recall.Errorf(recall.EINVALID, "Invalid observation type %q: use a word like user_prompt, command, file_edit or decision.", o.Type)
	}
	if o.Status == "" {
		o.Status = recall.StatusActive
	}
	if len(o.Metadata) > 0 && !json.Valid(o.Metadata) {
		return recall.Errorf(recall.EINVALID, "Observation metadata must be a JSON object.")
	}
	if len(o.Content) > db.maxContent() {
		return recall.Errorf(recall.ETOOLARGE, "Observation content is %d bytes, over the limit of %d: trim it or raise [limits] max_content_bytes.", len(o.Content), db.maxContent())
	}
	return redact.Fields(db.Redactor, &o.Metadata, nil, &o.Content, &o.File, &o.Key)
}

const observationColumns = `o.id, o.at, o.type, o.key, o.session, o.project, o.tool, o.file, o.content, o.metadata::text, o.status, o.pinned`

func scanObservation(row pgx.Row) (*recall.Observation, error) {
	var o recall.Observation
	var meta string
	if err := row.Scan(&o.ID, &o.At, &o.Type, &o.Key, &o.Session, &o.Project, &o.Tool, &o.File, &o.Content, &meta, &o.Status, &o.Pinned); err != nil {
		return nil, err
	}
	o.At = o.At.UTC()
	if meta != "{}" {
		o.Metadata = json.RawMessage(meta)
	}
	return &o, nil
}

// FindObservations returns the observations matching filter, oldest first
// unless it asks for newest first, and their total count.
func (s *ObservationService) FindObservations(ctx context.Context, f recall.ObservationFilter) ([]*recall.Observation, int, error) {
	w := newWhere("o", s.db.Namespace)
	w.observations(f)
	var total int
	if err := s.db.pool.QueryRow(ctx, `SELECT count(*) FROM observations o WHERE `+w.sql(), w.args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count observations: %w", err)
	}
	order := "ASC"
	if f.Desc {
		order = "DESC"
	}
	var limit any
	if f.Limit > 0 {
		limit = f.Limit
	}
	query := `SELECT ` + observationColumns + ` FROM observations o WHERE ` + w.sql() +
		` ORDER BY o.at ` + order + `, o.id ` + order + ` LIMIT ` + w.arg(limit) + ` OFFSET ` + w.arg(max(f.Offset, 0))
	rows, err := s.db.pool.Query(ctx, query, w.args...)
	out, err := collectRows(rows, err, scanObservation)
	if err != nil {
		return nil, 0, fmt.Errorf("find observations: %w", err)
	}
	return out, total, nil
}

var _ recall.ObservationPinner = (*ObservationService)(nil)

// PinObservation sets or clears an observation's landmark flag, which
// retention sweeps respect.
func (s *ObservationService) PinObservation(ctx context.Context, id int64, pinned bool) error {
	tag, err := s.db.pool.Exec(ctx, `UPDATE observations SET pinned = $3 WHERE namespace = $1 AND id = $2`, s.db.Namespace, id, pinned)
	if err != nil {
		return fmt.Errorf("pin observation: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return recall.Errorf(recall.ENOTFOUND, "No observation %d: list observations with 'recall timeline' or 'recall search --observations'.", id)
	}
	return nil
}
