package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/recall-mem/recall"
)

// Session states (seed 001): hot sessions are shown in full, cold ones
// are evicted to the archive with a one-line summary left in the index.
const (
	SessionHot  = "hot"
	SessionCold = "cold"
)

// Defaults for the heartbeat.
const (
	DefaultHotSessions = 5
	DefaultStaleAfter  = 90 * 24 * time.Hour
)

// PinCollection holds the core memories pinned at the end of sessions.
const PinCollection = "core"

// SessionService stores sessions. It is the storage half of the session
// lifecycle: the journal package adds the markdown views and the
// bootstrap context around it.
type SessionService struct {
	db *DB
	// HotSessions is how many sessions stay hot besides the one starting;
	// 0 means DefaultHotSessions.
	HotSessions int
	// StaleAfter flags pinned memories not reviewed or changed for this
	// long; 0 means DefaultStaleAfter.
	StaleAfter time.Duration
}

var _ recall.SessionService = (*SessionService)(nil)

// NewSessionService returns a SessionService over db.
func NewSessionService(db *DB) *SessionService { return &SessionService{db: db} }

const sessionColumns = `id, project, agent, started_at, ended_at, summary, learned, state`

func scanSession(row scanner) (*recall.Session, error) {
	var s recall.Session
	var started int64
	var ended sql.NullInt64
	if err := row.Scan(&s.ID, &s.Project, &s.Agent, &started, &ended, &s.Summary, &s.Learned, &s.State); err != nil {
		return nil, err
	}
	s.StartedAt, s.EndedAt = fromMS(started), fromNullMS(ended)
	return &s, nil
}

// StartSession records s (a resumed session becomes hot again), evicts
// hot sessions beyond the newest HotSessions to cold, and flags stale core
// memories. Context is left for the caller to fill.
func (s *SessionService) StartSession(ctx context.Context, in *recall.Session) (*recall.SessionStartReport, error) {
	if err := in.CheckUTF8(); err != nil {
		return nil, err
	}
	rep := &recall.SessionStartReport{}
	hot := s.HotSessions
	if hot <= 0 {
		hot = DefaultHotSessions
	}
	err := s.db.update(ctx, func(tx *Tx) error {
		sess := *in
		if sess.ID == "" {
			sess.ID = newSessionID(tx.now)
		}
		if sess.StartedAt.IsZero() {
			sess.StartedAt = tx.now
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO sessions (id, project, agent, started_at, state) VALUES (?, ?, ?, ?, 'hot')
			ON CONFLICT(id) DO UPDATE SET state = 'hot',
				project = CASE WHEN excluded.project != '' THEN excluded.project ELSE project END,
				agent = CASE WHEN excluded.agent != '' THEN excluded.agent ELSE agent END`,
			sess.ID, sess.Project, sess.Agent, ms(sess.StartedAt)); err != nil {
			return fmt.Errorf("start session: %w", err)
		}
		rows, err := tx.QueryContext(ctx, `UPDATE sessions SET state = 'cold' WHERE state = 'hot' AND id != ?1 AND id NOT IN
			(SELECT id FROM sessions WHERE state = 'hot' AND id != ?1 ORDER BY started_at DESC, id DESC LIMIT ?2) RETURNING id`, sess.ID, hot)
		if err != nil {
			return fmt.Errorf("evict sessions: %w", err)
		}
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return err
			}
			rep.Evicted = append(rep.Evicted, id)
		}
		if err := rows.Close(); err != nil {
			return err
		}
		if rep.Problems, err = staleCore(ctx, tx, tx.now, s.staleAfter()); err != nil {
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
func staleCore(ctx context.Context, tx *Tx, now time.Time, after time.Duration) ([]string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, title, COALESCE(reviewed_at, updated_at) FROM memories
		WHERE pinned = 1 AND status = 'active' AND COALESCE(reviewed_at, updated_at) < ? ORDER BY id LIMIT 20`, ms(now.Add(-after)))
	if err != nil {
		return nil, fmt.Errorf("stale core: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id, title string
		var at int64
		if err := rows.Scan(&id, &title, &at); err != nil {
			return nil, err
		}
		days := int(now.Sub(fromMS(at)).Hours() / 24)
		out = append(out, fmt.Sprintf("Core memory %s %q was last reviewed %d days ago: check that it is still true.", id, title, days))
	}
	return out, rows.Err()
}

// EnsureSession records a session seen for the first time (a hook fired
// without a SessionStart) and leaves a known one as it is.
func (s *SessionService) EnsureSession(ctx context.Context, in *recall.Session) error {
	if err := in.CheckUTF8(); err != nil {
		return err
	}
	return s.db.update(ctx, func(tx *Tx) error {
		at := in.StartedAt
		if at.IsZero() {
			at = tx.now
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO sessions (id, project, agent, started_at, state) VALUES (?, ?, ?, ?, 'hot')
			ON CONFLICT(id) DO NOTHING`, in.ID, in.Project, in.Agent, ms(at))
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
		pin = &recall.Memory{Title: end.Pin, Content: firstNonEmpty(end.Learned, end.Summary, end.Pin), Collection: PinCollection,
			Type: "pin", Pinned: true, Tier: recall.TierWorking, CreatedBy: "session " + end.ID, Metadata: meta}
		if err := s.db.clean(pin); err != nil {
			return nil, err
		}
	}
	end.Summary, end.Learned = s.db.redact(end.Summary), s.db.redact(end.Learned)
	var out *recall.Session
	err := s.db.update(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE sessions SET ended_at = ?,
			summary = CASE WHEN ? != '' THEN ? ELSE summary END,
			learned = CASE WHEN ? != '' THEN ? ELSE learned END WHERE id = ?`,
			ms(tx.now), end.Summary, end.Summary, end.Learned, end.Learned, end.ID)
		if err != nil {
			return fmt.Errorf("end session: %w", err)
		}
		implicit := false
		if n, _ := res.RowsAffected(); n == 0 {
			// Never started (a lost SessionStart, a typed id): record it
			// rather than drop what the caller wants kept.
			if end.ID == "" {
				end.ID = newSessionID(tx.now)
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO sessions (id, started_at, ended_at, summary, learned, state) VALUES (?, ?, ?, ?, ?, 'hot')`,
				end.ID, ms(tx.now), ms(tx.now), end.Summary, end.Learned); err != nil {
				return fmt.Errorf("end session: %w", err)
			}
			implicit = true
		}
		if pin != nil {
			var other string
			err := tx.QueryRowContext(ctx, `SELECT id FROM memories WHERE pinned = 1 AND title = ? COLLATE NOCASE LIMIT 1`, pin.Title).Scan(&other)
			if err == nil {
				return recall.Errorf(recall.ECONFLICT, "%q is already pinned (%s): pins are deduplicated by title; choose another title or update %s.", pin.Title, other, other)
			} else if !errors.Is(err, sql.ErrNoRows) {
				return err
			}
			if _, err := putMemory(ctx, tx, pin); err != nil {
				return err
			}
		}
		if out, err = findSession(ctx, tx, end.ID); err == nil {
			out.Implicit = implicit
		}
		return err
	})
	return out, err
}

// newSessionID names a session that the caller did not name.
func newSessionID(now time.Time) string {
	return now.Format("20060102-150405") + "-" + recall.RandomHex(6)
}

// FindSessions returns sessions newest first; limit 0 means all.
func (s *SessionService) FindSessions(ctx context.Context, limit int) ([]*recall.Session, error) {
	if limit <= 0 {
		limit = -1
	}
	rows, err := s.db.read.QueryContext(ctx, `SELECT `+sessionColumns+` FROM sessions ORDER BY started_at DESC, id DESC LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("find sessions: %w", err)
	}
	return collect(rows, scanSession)
}

// FindViewSessions returns, newest first, the sessions the session views
// and a session start's context use: every session that is not cold, the
// newest newest of all, and those named in also (sessions a start just
// evicted, for the archive). FindSessions(0) read every session ever
// recorded for them, cold ones included, on every session start. The
// newest are the first newest of the result: whatever else it holds is
// older.
func (s *SessionService) FindViewSessions(ctx context.Context, newest int, also []string) ([]*recall.Session, error) {
	if also == nil {
		also = []string{}
	}
	// A session start reads them twice (the views' check, then after the
	// start): through the kept statement, SQLite parses and plans it once.
	rows, err := s.db.readQuery(ctx, `SELECT `+sessionColumns+` FROM sessions WHERE state != 'cold' OR id IN `+inList+`
		UNION SELECT * FROM (SELECT `+sessionColumns+` FROM sessions ORDER BY started_at DESC, id DESC LIMIT ?)
		ORDER BY started_at DESC, id DESC`, jsonStrings(also), newest)
	if err != nil {
		return nil, fmt.Errorf("find sessions: %w", err)
	}
	return collect(rows, scanSession)
}

func findSession(ctx context.Context, tx *Tx, id string) (*recall.Session, error) {
	sess, err := scanSession(tx.QueryRowContext(ctx, `SELECT `+sessionColumns+` FROM sessions WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, recall.Errorf(recall.ENOTFOUND, "No session %q.", id)
	}
	return sess, err
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
