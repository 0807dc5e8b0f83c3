package sqlite

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/recall-mem/recall"
)

// ObservationService stores observations in SQLite.
type ObservationService struct {
	db *DB
}

var _ recall.ObservationService = (*ObservationService)(nil)

// NewObservationService returns an ObservationService over db.
func NewObservationService(db *DB) *ObservationService { return &ObservationService{db: db} }

// RecordObservations writes all observations in one transaction.
func (s *ObservationService) RecordObservations(ctx context.Context, obs []*recall.Observation) error {
	for i, o := range obs {
		if err := s.db.cleanObservation(o); err != nil {
			if len(obs) > 1 {
				return recall.Errorf(recall.ErrorCode(err), "Observation %d: %s Nothing was recorded.", i+1, recall.ErrorMessage(err))
			}
			return err
		}
	}
	return s.db.update(ctx, func(tx *Tx) error {
		stmt, err := tx.PrepareContext(ctx, `INSERT INTO observations (at, type, key, session, project, tool, file, content, metadata, status, pinned)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer stmt.Close()
		for _, o := range obs {
			if o.At.IsZero() {
				o.At = tx.now
			}
			res, err := stmt.ExecContext(ctx, ms(o.At), o.Type, o.Key, o.Session, o.Project, o.Tool, o.File, o.Content, metaText(o.Metadata), o.Status, o.Pinned)
			if err != nil {
				return fmt.Errorf("insert observation: %w", err)
			}
			if o.ID, err = res.LastInsertId(); err != nil {
				return err
			}
		}
		return nil
	})
}

func (db *DB) cleanObservation(o *recall.Observation) error {
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
	return db.redactFields(&o.Metadata, nil, &o.Content, &o.File, &o.Key)
}

const observationColumns = `o.id, o.at, o.type, o.key, o.session, o.project, o.tool, o.file, o.content, o.metadata, o.status, o.pinned`

func scanObservation(row scanner) (*recall.Observation, error) {
	var o recall.Observation
	var at int64
	var meta string
	if err := row.Scan(&o.ID, &at, &o.Type, &o.Key, &o.Session, &o.Project, &o.Tool, &o.File, &o.Content, &meta, &o.Status, &o.Pinned); err != nil {
		return nil, err
	}
	o.At = fromMS(at)
	if meta != "" && meta != "{}" {
		o.Metadata = json.RawMessage(meta)
	}
	return &o, nil
}

// whereObservations turns a filter into an SQL condition over alias o.
func whereObservations(f recall.ObservationFilter) (string, []any) {
	conds := []string{"1"}
	var args []any
	add := func(cond string, v any) { conds, args = append(conds, cond), append(args, v) }
	if f.ID != nil {
		add("o.id = ?", *f.ID)
	}
	for col, v := range map[string]*string{"o.type": f.Type, "o.key": f.Key, "o.session": f.Session, "o.project": f.Project} {
		if v != nil {
			add(col+" = ?", *v)
		}
	}
	if f.Status != nil {
		switch *f.Status {
		case recall.StatusActive, recall.StatusCompacted:
			// The partial indexes' statuses are written, not bound:
			// SQLite compares a bound value with each partial index's
			// condition when it plans, and then plans the statement
			// again every time a value is bound (every search's
			// observation query did).
			conds = append(conds, "o.status = '"+*f.Status+"'")
		default:
			add("o.status = ?", *f.Status)
		}
	}
	if f.Since != nil {
		add("o.at >= ?", ms(*f.Since))
	}
	if f.Until != nil {
		add("o.at < ?", ms(*f.Until))
	}
	if f.Search != "" {
		q := FTSQuery(f.Search)
		if q == "" {
			q = `""`
		}
		add("o.id IN (SELECT rowid FROM observations_fts WHERE observations_fts MATCH ?)", q)
	}
	return strings.Join(conds, " AND "), args
}

// FindObservations returns observations matching filter.
func (s *ObservationService) FindObservations(ctx context.Context, f recall.ObservationFilter) ([]*recall.Observation, int, error) {
	where, args := whereObservations(f)
	order := "ASC"
	if f.Desc {
		order = "DESC"
	}
	query := `SELECT ` + observationColumns + ` FROM observations o WHERE ` + where + ` ORDER BY o.at ` + order + `, o.id ` + order
	pargs := args
	switch {
	case f.Offset == 0 && f.Limit > 0:
		// Written, not bound: SQLite plans with a bound LIMIT's value and
		// compiles such a statement again at every run (searches ask for
		// the same limit every time).
		query += ` LIMIT ` + strconv.Itoa(f.Limit)
	case f.Offset > 0:
		limit := f.Limit
		if limit <= 0 {
			limit = -1
		}
		query += ` LIMIT ? OFFSET ?`
		pargs = append(args[:len(args):len(args)], limit, f.Offset)
	}
	rows, err := s.db.readQuery(ctx, query, pargs...)
	if err != nil {
		return nil, 0, fmt.Errorf("find observations: %w", err)
	}
	out, err := collect(rows, scanObservation)
	if err != nil {
		return nil, 0, err
	}
	// A first page that holds every match is its own count.
	if f.Offset == 0 && (f.Limit <= 0 || len(out) < f.Limit) {
		return out, len(out), nil
	}
	var total int
	if err := s.db.readQueryRow(ctx, `SELECT COUNT(*) FROM observations o WHERE `+where, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count observations: %w", err)
	}
	return out, total, nil
}
