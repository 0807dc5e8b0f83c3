package httpapi

import (
	"net/http"
	"path/filepath"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/forget"
)

// storeRoutes are the store's upkeep: forgetting (purge, sweep), what it
// holds (stats, embedding coverage), its health (doctor), and copies of
// it (export, backup).
func (s *Server) storeRoutes(mux router) {
	mux.HandleFunc("POST /v1/purge", s.purge)
	mux.HandleFunc("POST /v1/sweep", s.sweep)
	mux.HandleFunc("GET /v1/stats", s.stats)
	mux.HandleFunc("GET /v1/reindex/status", s.reindexStatus)
	mux.HandleFunc("GET /v1/doctor", s.doctor)
	mux.HandleFunc("GET /v1/export", s.export)
	mux.HandleFunc("POST /v1/backup", s.backup)
}

// purgeBody is the body of POST /v1/purge: the filters of `recall purge`
// (combined with AND, at least one) and exactly one of dry_run and
// confirm.
type purgeBody struct {
	Before        *time.Time `json:"before,omitempty"` // observations at, or memories created, before this time
	Project       string     `json:"project,omitempty"`
	Session       string     `json:"session,omitempty"`        // observations only
	ObservationID int64      `json:"observation_id,omitempty"` // one observation
	MemoryID      string     `json:"memory_id,omitempty"`      // one memory and its history (implies memories)
	Type          string     `json:"type,omitempty"`
	OlderThanDays *int       `json:"older_than_days,omitempty"` // with type
	Search        *string    `json:"search,omitempty"`          // every word must match
	Match         string     `json:"match,omitempty"`           // words (default), prefix or substring
	Memories      bool       `json:"memories,omitempty"`        // purge memories instead of observations
	Sample        int        `json:"sample,omitempty"`          // dry run: list up to this many matches
	Now           *time.Time `json:"now,omitempty"`             // the clock older_than_days counts back from
	// DryRun counts what would go and deletes nothing.
	DryRun bool `json:"dry_run,omitempty"`
	// Confirm deletes for good: secure delete, no undo.
	Confirm bool `json:"confirm,omitempty"`
}

func (b purgeBody) criteria(now time.Time) (recall.PurgeCriteria, error) {
	c := recall.PurgeCriteria{Before: b.Before, Project: b.Project, Session: b.Session, ObservationID: b.ObservationID,
		MemoryID: b.MemoryID, Type: b.Type, OlderThanDays: b.OlderThanDays, Match: b.Match, Memories: b.Memories}
	if b.Search != nil {
		c.Search = *b.Search
		if c.Search == "" {
			c.Search = " " // an explicitly empty search is refused, not ignored
		}
	}
	if b.DryRun == b.Confirm {
		return c, recall.Errorf(recall.EINVALID, "Say what to do: dry_run true to count what would go, or confirm true to delete it for good (not both).")
	}
	if b.Sample < 0 {
		return c, recall.Errorf(recall.EINVALID, "Invalid sample %d: give 0 or more.", b.Sample)
	}
	return c, forget.Resolve(&c, now)
}

func (s *Server) purge(w http.ResponseWriter, r *http.Request) {
	var b purgeBody
	if err := decodeBody(r, &b); err != nil {
		writeError(w, r, s.log(), err)
		return
	}
	c, err := b.criteria(s.nowOr(b.Now))
	if err != nil {
		writeError(w, r, s.log(), err)
		return
	}
	var rep *recall.PurgeReport
	if b.DryRun {
		rep, err = s.Engine.PlanPurge(r.Context(), c, b.Sample)
	} else {
		rep, err = s.Engine.Purge(r.Context(), c)
	}
	s.reply(w, r, http.StatusOK, rep, err)
}

// sweepBody is the optional body of POST /v1/sweep.
type sweepBody struct {
	DryRun bool       `json:"dry_run,omitempty"` // count what the retention policy would remove
	Now    *time.Time `json:"now,omitempty"`     // the time the policy counts back from
}

func (s *Server) sweep(w http.ResponseWriter, r *http.Request) {
	var b sweepBody
	if err := decodeOptionalBody(r, &b); err != nil {
		writeError(w, r, s.log(), err)
		return
	}
	rep, err := s.Engine.SweepAt(r.Context(), s.nowOr(b.Now), b.DryRun)
	s.reply(w, r, http.StatusOK, rep, err)
}

func (s *Server) stats(w http.ResponseWriter, r *http.Request) {
	now, err := s.nowParam(r)
	var st *recall.StoreStats
	if err == nil {
		st, err = s.Engine.Stats(r.Context(), now)
	}
	s.reply(w, r, http.StatusOK, st, err)
}

func (s *Server) reindexStatus(w http.ResponseWriter, r *http.Request) {
	st, err := s.Engine.ReindexStatus(r.Context())
	s.reply(w, r, http.StatusOK, st, err)
}

// doctorReport is the response to GET /v1/doctor.
type doctorReport struct {
	// OK is false when a check failed (warnings leave it true).
	OK     bool           `json:"ok"`
	Checks []engine.Check `json:"checks"`
}

func (s *Server) doctor(w http.ResponseWriter, r *http.Request) {
	checks, err := s.Engine.Doctor(r.Context())
	rep := doctorReport{OK: true, Checks: checks}
	for _, c := range checks {
		if c.Status == engine.CheckFail {
			rep.OK = false
		}
	}
	s.reply(w, r, http.StatusOK, rep, err)
}

// jsonLinesType is the media type of GET /v1/export.
const jsonLinesType = "application/x-ndjson"

// lazyWriter sends the success headers on the first write, so that an
// error before any line can still be answered as an error.
type lazyWriter struct {
	w       http.ResponseWriter
	started bool
}

func (l *lazyWriter) start() {
	if !l.started {
		l.started = true
		l.w.Header().Set("Content-Type", jsonLinesType)
		l.w.Header().Set("X-Content-Type-Options", "nosniff")
		l.w.WriteHeader(http.StatusOK)
	}
}

func (l *lazyWriter) Write(p []byte) (int, error) {
	l.start()
	return l.w.Write(p)
}

func (s *Server) export(w http.ResponseWriter, r *http.Request) {
	f, err := parseFilter(r.URL.Query())
	if err != nil {
		writeError(w, r, s.log(), err)
		return
	}
	lw := &lazyWriter{w: w}
	if err := s.Engine.Export(r.Context(), f, lw); err != nil {
		if !lw.started {
			writeError(w, r, s.log(), err)
			return
		}
		// Mid-stream the status is sent: cut the stream short, so the
		// client sees an incomplete body rather than a complete one.
		s.log().Error("export failed mid-stream", "err", err)
		panic(http.ErrAbortHandler)
	}
	lw.start() // an empty export is a 200 with no lines
}

// backupReport is the response to POST /v1/backup.
type backupReport struct {
	// Path is the backup file, under the store's backups/ directory on
	// the server's machine.
	Path string `json:"path"`
	// File is its name within backups/.
	File   string              `json:"file"`
	Counts recall.BackupCounts `json:"counts"`
}

func (s *Server) backup(w http.ResponseWriter, r *http.Request) {
	// The server chooses where the copy goes: a client must not name a
	// path on the server's disk.
	path, counts, err := s.Engine.BackupInStore(r.Context(), s.Engine.Now())
	s.reply(w, r, http.StatusCreated, backupReport{Path: path, File: filepath.Base(path), Counts: counts}, err)
}
