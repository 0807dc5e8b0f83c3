package main

import (
	"fmt"
	"path/filepath"
)

// The checks of a store that may be damaged. They run before the store is
// opened, since SQLite discards a damaged write-ahead log on open, and
// they still report when it cannot be opened at all.

// fileCheckName names the byte-level check of the store's files.
const fileCheckName = "store files (database header, write-ahead log)"

// fileCheck inspects recall.db and recall.db-wal without SQLite. It
// reports whether committed writes are unreadable, in which case doctor
// must not open the store: the open would discard the log.
func (a *app) fileCheck(dir string) (r checkResult, lost bool) {
	r = checkResult{Name: fileCheckName, Status: checkOK}
	for _, p := range a.eng.Parts().CheckFiles(filepath.Join(dir, dbFile)) {
		st := checkWarn
		if p.Lost {
			st, lost = checkFail, true
		}
		r.Status = worst(r.Status, st)
		r.Details = append(r.Details, fmt.Sprintf("%s: %s", p.File, p.Problem))
	}
	if r.Status == checkWarn {
		r.Details = append(r.Details, "if no recall process was writing just now, a process stopped mid-write; nothing committed is lost")
	}
	if lost {
		r.Details = append(r.Details, "doctor did not open the store with SQLite, so that nothing in these files is discarded or overwritten")
		r.Details = append(r.Details, repairAdvice(dir)...)
	}
	return r, lost
}

// openFailure reports a store whose database SQLite refuses to open as
// damaged. It returns false when the error is not damage (a missing store,
// a bad config): doctor returns that error as every command does.
func (a *app) openFailure(dir string, err error) (checkResult, bool) {
	if !a.eng.Parts().IsCorrupt(err) {
		return checkResult{}, false
	}
	details := append([]string{fmt.Sprintf("%s cannot be opened: %v", filepath.Join(dir, dbFile), err)}, repairAdvice(dir)...)
	return checkResult{Name: "store opens", Status: checkFail, Details: details}, true
}

// repairAdvice says what to do with a damaged store, in order: keep the
// evidence, restore a backup, else salvage what SQLite can still read.
func repairAdvice(dir string) []string {
	db := filepath.Join(dir, dbFile)
	salvage := filepath.Join(filepath.Dir(dir), filepath.Base(dir)+".salvaged")
	return []string{
		fmt.Sprintf("what to do: stop every recall process (servers, hooks), then keep a copy of the store as it is: cp -a %s %s.broken", dir, dir),
		"then restore the store from a backup (recall backup) if you have one",
		fmt.Sprintf("or salvage what SQLite can still read, with a sqlite3 shell that has .recover (the one from sqlite.org): mkdir -m 700 %s && sqlite3 %s .recover | sqlite3 %s, then check it with recall --store %s doctor",
			salvage, db, filepath.Join(salvage, dbFile), salvage),
	}
}

// integrityAdvice follows a failed integrity check.
func integrityAdvice(dir string) []string {
	return append([]string{"SQLite found damage in the store: reads may fail or return wrong rows, and writes may spread the damage"}, repairAdvice(dir)...)
}
