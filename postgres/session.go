package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/recall-mem/recall"
)

// Session bookkeeping defaults, as on SQLite.
const (
	DefaultHotSessions = 5
	DefaultStaleAfter  = 90 * 24 * time.Hour
)

// PinCollection is where a session end's pin is kept.
const PinCollection = "core"

// SessionService keeps the session rows of the namespace.
type SessionService struct {
	db          *DB
	HotSessions int           // sessions kept hot besides the one starting
	StaleAfter  time.Duration // pinned memories unreviewed this long are flagged
}

// NewSessionService returns a SessionService over db.
func NewSessionService(db *DB) *SessionService { return &SessionService{db: db} }

const sessionColumns = `id, project, agent, started_at, ended_at, summary, learned, state`

func scanSession(row pgx.Row) (*recall.Session, error) {
	var s recall.Session
	if err := row.Scan(&s.ID, &s.Project, &s.Agent, &s.StartedAt, &s.EndedAt, &s.Summary, &s.Learned, &s.State); err != nil {
		return nil, err
	}
	s.StartedAt = s.StartedAt.UTC()
	s.EndedAt = utcPtr(s.EndedAt)
	return &s, nil
}

// StartSession records s (a resumed session becomes hot again), evicts
// hot sessions beyond the newest HotSessions to cold, and flags stale core
// memories. Context is left for the caller to fill.
func (s *SessionService) StartSession(ctx context.Context, in *recall.Session) (*recall.SessionStartReport, error) {
	if err := in.CheckUTF8(); err != nil {
		return nil, err
	}
	hot := s.HotSessions
	if hot <= 0 {
		hot = DefaultHotSessions
	}
	rep := &recall.SessionStartReport{}
	err := s.db.tx(ctx, func(tx *Tx) error {
		sess := *in
		if sess.ID == "" {
			sess.ID = newSessionID(tx.now)
		}
		if sess.StartedAt.IsZero() {
			sess.StartedAt = tx.now
		}
		ns := tx.db.Namespace
		if _, err := tx.Exec(ctx, `INSERT INTO sessions (namespace, id, project, agent, started_at, state) VALUES ($1, $2, $3, $4, $5, 'hot')
			ON CONFLICT (namespace, id) DO UPDATE SET state = 'hot',
				project = CASE WHEN excluded.project <> '' THEN excluded.project ELSE sessions.project END,
				agent = CASE WHEN excluded.agent <> '' THEN excluded.agent ELSE sessions.agent END`,
			ns, sess.ID, sess.Project, sess.Agent, sess.StartedAt.UTC()); err != nil {
			return fmt.Errorf("start session: %w", err)
		}
		rows, err := tx.Query(ctx, `UPDATE sessions SET state = 'cold' WHERE namespace = $1 AND state = 'hot' AND id <> $2 AND id NOT IN
			(SELECT id FROM sessions WHERE namespace = $1 AND state = 'hot' AND id <> $2 ORDER BY started_at DESC, id DESC LIMIT $3) RETURNING id`, ns, sess.ID, hot)
		if rep.Evicted, err = collectRows(rows, err, func(r pgx.Row) (id string, err error) { return id, r.Scan(&id) }); err != nil {
			return fmt.Errorf("evict sessions: %w", err)
		}
		if rep.Problems, err = staleCore(ctx, tx, s.staleAfter()); err != nil {
			return err
		}
		rep.Session, err = findSession(ctx, tx, sess.ID)
		return err
	})
	if err != nil {
		return nil, err
	}
	return rep, nil
}

func (s *SessionService) staleAfter() time.Duration {
	if s.StaleAfter > 0 {
		return s.StaleAfter
	}
	return DefaultStaleAfter
}

// staleCore flags pinned memories nobody has reviewed or changed for a
// while: core memory is shown every session, so it must stay true.
func staleCore(ctx context.Context, tx *Tx, after time.Duration) ([]string, error) {
	rows, err := tx.Query(ctx, `SELECT id, title, COALESCE(reviewed_at, updated_at) FROM memories
		WHERE namespace = $1 AND pinned AND status = 'active' AND COALESCE(reviewed_at, updated_at) < $2 ORDER BY id LIMIT 20`,
		tx.db.Namespace, tx.now.Add(-after))
	out, err := collectRows(rows, err, func(r pgx.Row) (string, error) {
		var id, title string
		var at time.Time
		if err := r.Scan(&id, &title, &at); err != nil {
			return "", err
		}
		days := int(tx.now.Sub(at).Hours() / 24)
		return fmt.Sprintf("Core memory %s %q was last reviewed %d days ago: check that it is still true.", id, title, days), nil
	})
	if err != nil {
		return nil, fmt.Errorf("stale core: %w", err)
	}
	return out, nil
}

// EnsureSession records a session seen for the first time (a hook fired
// without a SessionStart) and leaves a known one as it is.
func (s *SessionService) EnsureSession(ctx context.Context, in *recall.Session) error {
	if err := in.CheckUTF8(); err != nil {
		return err
	}
	return s.db.tx(ctx, func(tx *Tx) error {
		at := in.StartedAt
		if at.IsZero() {
			at = tx.now
		}
		_, err := tx.Exec(ctx, `INSERT INTO sessions (namespace, id, project, agent, started_at, state) VALUES ($1, $2, $3, $4, $5, 'hot')
			ON CONFLICT (namespace, id) DO NOTHING`, tx.db.Namespace, in.ID, in.Project, in.Agent, at.UTC())
		return err
	})
}

// EndSession marks the session ended and stores its summary; an empty
// summary or learned keeps what is there. A pin becomes a pinned memory in
// collection "core" in the same transaction.
func (s *SessionService) EndSession(ctx context.Context, end recall.SessionEnd) (*recall.Session, error) {
	if err := end.CheckUTF8(); err != nil {
		return nil, err
	}
	var pin *recall.Memory
	if end.Pin != "" {
		meta, _ := json.Marshal(map[string]string{"session": end.ID})
		content := end.Learned
		if content == "" {
			content = end.Summary
		}
		if content == "" {
			content = end.Pin
		}
		pin = &recall.Memory{Title: end.Pin, Content: content, Collection: PinCollection,
			Type: "pin", Pinned: true, Tier: recall.TierWorking, CreatedBy: "session " + end.ID, Metadata: meta}
		if err := s.db.checkMemory(pin); err != nil {
			return nil, err
		}
	}
	var none json.RawMessage
	if err := s.db.redactText(&none, &end.Summary, &end.Learned); err != nil {
		return nil, err
	}
	var out *recall.Session
	err := s.db.tx(ctx, func(tx *Tx) error {
		ns := tx.db.Namespace
		tag, err := tx.Exec(ctx, `UPDATE sessions SET ended_at = $3,
			summary = CASE WHEN $4 <> '' THEN $4 ELSE summary END,
			learned = CASE WHEN $5 <> '' THEN $5 ELSE learned END WHERE namespace = $1 AND id = $2`,
			ns, end.ID, tx.now, end.Summary, end.Learned)
		if err != nil {
			return fmt.Errorf("end session: %w", err)
		}
		implicit := tag.RowsAffected() == 0
		if implicit {
			// Never started (a lost SessionStart, a typed id): record it
			// rather than drop what the caller wants kept.
			if end.ID == "" {
				end.ID = newSessionID(tx.now)
			}
			if _, err := tx.Exec(ctx, `INSERT INTO sessions (namespace, id, started_at, ended_at, summary, learned, state) VALUES ($1, $2, $3, $3, $4, $5, 'hot')`,
				ns, end.ID, tx.now, end.Summary, end.Learned); err != nil {
				return fmt.Errorf("end session: %w", err)
			}
		}
		if pin != nil {
			if err := tx.insert(ctx, pin, "put"); err != nil {
				return err
			}
		}
		if out, err = findSession(ctx, tx, end.ID); err == nil {
			out.Implicit = implicit
		}
		return err
	})
	if err == nil && pin != nil {
		s.db.wrote(ctx, pin.ID)
	}
	return out, err
}

// newSessionID names a session that the caller did not name.
func newSessionID(now time.Time) string {
	return now.Format("20060102-150405") + "-" + recall.RandomHex(6)
}

// FindSessions returns sessions newest first; limit 0 means all.
func (s *SessionService) FindSessions(ctx context.Context, limit int) ([]*recall.Session, error) {
	var lim any // NULL: no limit
	if limit > 0 {
		lim = limit
	}
	rows, err := s.db.pool.Query(ctx, `SELECT `+sessionColumns+` FROM sessions WHERE namespace = $1 ORDER BY started_at DESC, id DESC LIMIT $2`, s.db.Namespace, lim)
	out, err := collectRows(rows, err, scanSession)
	if err != nil {
		return nil, fmt.Errorf("find sessions: %w", err)
	}
	return out, nil
}

func findSession(ctx context.Context, tx *Tx, id string) (*recall.Session, error) {
	sess, err := scanSession(tx.QueryRow(ctx, `SELECT `+sessionColumns+` FROM sessions WHERE namespace = $1 AND id = $2`, tx.db.Namespace, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, recall.Errorf(recall.ENOTFOUND, "No session %q.", id)
	}
	return sess, err
}
