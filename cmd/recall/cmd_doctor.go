package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/hook"
	"github.com/spf13/cobra"
)

// errCheckFailed is the code of doctor's error: exit 1, like any failed
// check.
const errCheckFailed = "check_failed"

// checkResult is one line of the doctor's report.
type checkResult struct {
	Name    string   `json:"name"`
	Status  string   `json:"status"`
	Details []string `json:"details,omitempty"`
}

func (a *app) doctorCommand() *cobra.Command {
	var jsonOut bool
	c := &cobra.Command{
		Use:   "doctor",
		Short: "Check the store: integrity, FTS indexes, orphans, markdown drift, permissions, hooks",
		Long: `Check the store and its surroundings and grade each check ok, info, warn or
fail: the database and write-ahead log files byte by byte (before opening,
so that damage is reported rather than discarded), SQLite integrity_check
and FTS5 integrity-check, orphaned rows, drift between the markdown views and
the store, the embedding queue and the provider's last error, store file permissions (no access for other users), and whether
Claude Code hooks are installed. A damaged store is still checked, and the
report says how to restore or salvage it. Exits 1 when a check fails; info
and warnings do not change the exit code.`,
		Example: `  recall doctor
  recall doctor --json`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			results, err := a.doctorReport(c.Context())
			if err != nil {
				return err
			}
			failed := 0
			for _, r := range results {
				if r.Status == checkFail {
					failed++
				}
			}
			if jsonOut {
				if err := writeJSON(a.stdout, map[string]any{"ok": failed == 0, "checks": results, "grades": grades}); err != nil {
					return err
				}
			} else {
				for _, r := range results {
					fprintf(a.stdout, "%-5s %s\n", r.Status, r.Name)
					for _, d := range r.Details {
						fprintf(a.stdout, "      %s\n", d)
					}
				}
				fprintf(a.stdout, "\ngrades:\n")
				for _, g := range grades {
					fprintf(a.stdout, "  %-5s %s\n", g.Status, g.Meaning)
				}
			}
			if failed > 0 {
				return recall.Errorf(errCheckFailed, "%d check(s) failed: see the report above.", failed)
			}
			return nil
		},
	}
	c.Flags().BoolVar(&jsonOut, "json", false, "print the report as JSON")
	return c
}

// doctorReport checks the store's files, opens the store unless that
// would discard damaged data, and runs every check. It returns an error
// only when there is no store to check (or no config to read).
func (a *app) doctorReport(ctx context.Context) ([]checkResult, error) {
	loc, err := resolveStore(a.eng.StoreFlag, a.eng.GlobalFlag)
	if err != nil {
		return nil, err
	}
	files, lost := a.fileCheck(loc.Dir)
	if lost {
		return []checkResult{files}, nil
	}
	if err := a.open(ctx); err != nil {
		r, damaged := a.openFailure(loc.Dir, err)
		if !damaged {
			return nil, err
		}
		return []checkResult{files, r}, nil
	}
	return append([]checkResult{files}, a.diagnose(ctx)...), nil
}

// diagnose runs every check of an open store.
func (a *app) diagnose(ctx context.Context) []checkResult {
	var out []checkResult
	add := func(name string, fail bool, details ...string) {
		st := checkOK
		if fail {
			st = checkFail
		}
		out = append(out, checkResult{Name: name, Status: st, Details: details})
	}
	if err := a.eng.Store.Upkeep().Check(ctx); err != nil {
		add("integrity (integrity_check, FTS5 integrity-check)", true, append([]string{err.Error()}, integrityAdvice(a.eng.Location.Dir)...)...)
	} else {
		add("integrity (integrity_check, FTS5 integrity-check)", false)
	}
	out = append(out, a.orphanCheck(ctx))
	if drift, err := a.eng.Sessions().Drift(ctx); err != nil {
		add("markdown views", true, err.Error())
	} else {
		for i, d := range drift {
			drift[i] = d + " differs from the store (edited by hand?); `recall session start` rewrites it"
		}
		st := checkOK
		if len(drift) > 0 {
			st = checkWarn // the views are derived; the store is intact
		}
		out = append(out, checkResult{Name: "markdown views", Status: st, Details: drift})
	}
	out = append(out, a.embeddingCheck(ctx))
	out = append(out, a.permissionCheck())
	out = append(out, a.hookCheck())
	out = append(out, a.gitCheck(ctx))
	return out
}

// orphanCheck counts rows that point at something missing. Observations
// of a session never started are what `recall observe --session s1`
// records by design (info); a memory without its current version is
// damage (fail).
func (a *app) orphanCheck(ctx context.Context) checkResult {
	r := checkResult{Name: "orphans", Status: checkOK}
	orphans, err := a.eng.Store.Upkeep().Orphans(ctx)
	if err != nil {
		return checkResult{Name: "orphans", Status: checkFail, Details: []string{err.Error()}}
	}
	kinds := make([]string, 0, len(orphans))
	for kind := range orphans {
		kinds = append(kinds, kind)
	}
	sort.Strings(kinds)
	for _, kind := range kinds {
		n := orphans[kind]
		if n == 0 {
			continue
		}
		if kind == recall.OrphanObservations {
			r.Status = worst(r.Status, checkInfo)
			r.Details = append(r.Details, fmt.Sprintf("%d %s: recorded with --session for a session never started; they are kept and searchable, and `recall session start --session ID` adds the session", n, kind))
			continue
		}
		r.Status = checkFail
		r.Details = append(r.Details, fmt.Sprintf("%d %s", n, kind))
	}
	return r
}

// permissionCheck finds store files other users can access. The database
// and its log hold the memories (fail); the directory, config and hook
// log hold no memories (warn).
func (a *app) permissionCheck() checkResult {
	r := checkResult{Name: "store permissions", Status: checkOK}
	type file struct {
		name string
		data bool
	}
	files := []file{{"", false}, {dbFile, true}, {dbFile + "-wal", true}, {dbFile + "-shm", true}, {configFile, false}, {hookLogFile, false}}
	for _, f := range files {
		p := filepath.Join(a.eng.Location.Dir, f.name)
		fi, err := os.Stat(p)
		if err != nil {
			continue
		}
		mode := fi.Mode().Perm()
		if mode&0o077 == 0 {
			continue
		}
		want, what := "0600", "it holds no memories"
		if fi.IsDir() {
			want, what = "0700", "other users can list the store's files"
		}
		st := checkWarn
		if f.data {
			st, what = checkFail, "it holds the memories"
		}
		r.Status = worst(r.Status, st)
		r.Details = append(r.Details, fmt.Sprintf("%s is %04o: other users can read it (%s); run chmod %s %s", p, mode, what, want, p))
	}
	return r
}

// hookCheck reports where recall's Claude Code hooks are installed: the
// project's settings (beside a project store, or the working directory)
// and the user's. Missing hooks are a warning, not a failure.
func (a *app) hookCheck() checkResult {
	r := checkResult{Name: "claude code hooks", Status: checkWarn}
	var places []string
	if a.eng.Location.Kind == "project" {
		places = append(places, filepath.Join(filepath.Dir(a.eng.Location.Dir), ".claude", "settings.json"))
	}
	if wd, err := os.Getwd(); err == nil {
		places = append(places, filepath.Join(wd, ".claude", "settings.json"))
	}
	if home, err := os.UserHomeDir(); err == nil {
		places = append(places, filepath.Join(home, ".claude", "settings.json"))
	}
	seen := map[string]bool{}
	for _, p := range places {
		if seen[p] {
			continue
		}
		seen[p] = true
		events, err := hook.Installed(p, hookCommandLine)
		if err != nil || len(events) == 0 {
			continue
		}
		r.Status = checkOK
		line := fmt.Sprintf("%s: %s", p, strings.Join(events, ", "))
		if len(events) < len(hook.Events) {
			line += fmt.Sprintf(" (%d of %d events; rerun `recall install claude`)", len(events), len(hook.Events))
		}
		r.Details = append(r.Details, line)
	}
	if r.Status == checkWarn {
		r.Details = []string{"not installed: run `recall install claude` (or --global) so sessions are captured"}
	}
	return r
}
