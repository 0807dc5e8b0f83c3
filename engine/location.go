package engine

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/recall-mem/recall"
)

const (
	ProjectDir = ".recall"
	DBFile     = "recall.db"
	ConfigFile = "config.toml"
)

// Location is a resolved store directory and why it was chosen. The
// directory holds config.toml and the managed files; the memories are in
// its SQLite file, or on the server URL names.
type Location struct {
	Dir    string `json:"dir"`
	Reason string `json:"reason"`
	Kind   string `json:"kind"` // project or global
	// URL is the store's server (postgres://…), from --store,
	// RECALL_STORE or [store] url; empty for the SQLite file in Dir. It
	// may hold a password: show Store(), never URL.
	URL string `json:"-"`
}

// IsStoreURL reports whether a --store or RECALL_STORE value names a
// server (scheme://…) rather than a directory.
func IsStoreURL(s string) bool {
	scheme, _, ok := strings.Cut(s, "://")
	return ok && scheme != "" && !strings.ContainsAny(scheme, `/\.`)
}

// Store names the store for people: the URL with its password hidden,
// else the directory.
func (l *Location) Store() string {
	if l.URL != "" {
		return recall.RedactURL(l.URL)
	}
	return l.Dir
}

// DBPath is what the backend opens: the URL, else the SQLite file.
func (l *Location) DBPath() string {
	if l.URL != "" {
		return l.URL
	}
	return filepath.Join(l.Dir, DBFile)
}

// ResolveStore finds the store: --store, $RECALL_STORE, the nearest .recall/
// above the working directory, else the global store; --global forces the
// global one. A --store or RECALL_STORE that is a URL names the server and
// leaves the directory (for config.toml and the managed files) to the
// rest of these rules; otherwise [store] url in the directory's
// config.toml may name one.
func ResolveStore(flag string, global bool) (*Location, error) {
	for _, src := range []struct{ v, reason string }{{flag, "--store flag"}, {os.Getenv("RECALL_STORE"), "RECALL_STORE environment variable"}} {
		if IsStoreURL(src.v) {
			loc, err := resolveDir("", global, true)
			if err != nil {
				return nil, err
			}
			loc.URL, loc.Reason = src.v, src.reason+"; config and files in "+loc.Dir
			return loc, nil
		}
	}
	loc, err := resolveDir(flag, global, false)
	if err != nil {
		return nil, err
	}
	// A config.toml that does not parse is reported when the store opens;
	// finding the store does not depend on its other settings.
	if cfg, err := LoadConfig(filepath.Join(loc.Dir, ConfigFile)); err == nil && cfg.Store.URL != "" {
		if !IsStoreURL(cfg.Store.URL) {
			return nil, recall.Errorf(recall.EINVALID, "%s: [store] url %s is not a URL: use postgres://user@host:5432/dbname, or remove it to keep the SQLite file.",
				filepath.Join(loc.Dir, ConfigFile), recall.RedactURL(cfg.Store.URL))
		}
		loc.URL, loc.Reason = cfg.Store.URL, "[store] url in "+filepath.Join(loc.Dir, ConfigFile)+" ("+loc.Reason+")"
	}
	return loc, nil
}

// resolveDir finds the store directory; skipEnv ignores RECALL_STORE (a
// URL, already taken).
func resolveDir(flag string, global, skipEnv bool) (*Location, error) {
	if global {
		dir, err := GlobalStoreDir()
		return &Location{Dir: dir, Reason: "--global", Kind: "global"}, err
	}
	if flag != "" {
		dir, err := filepath.Abs(flag)
		return &Location{Dir: dir, Reason: "--store flag", Kind: "explicit"}, err
	}
	if env := os.Getenv("RECALL_STORE"); env != "" && !skipEnv {
		dir, err := filepath.Abs(env)
		return &Location{Dir: dir, Reason: "RECALL_STORE environment variable", Kind: "explicit"}, err
	}
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		cand := filepath.Join(dir, ProjectDir)
		if fi, err := os.Stat(cand); err == nil && fi.IsDir() {
			return &Location{Dir: cand, Reason: "nearest .recall/ above " + wd, Kind: "project"}, nil
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	dir, err := GlobalStoreDir()
	return &Location{Dir: dir, Reason: "no .recall/ found above " + wd + "; using the global store", Kind: "global"}, err
}

// StoreExists returns ENOTFOUND, naming `recall init`, when loc holds no
// database yet. A server's store is created on first open, so it exists
// as far as recall can tell without connecting.
func StoreExists(loc *Location) error {
	if loc.URL != "" {
		return nil
	}
	if _, err := os.Stat(filepath.Join(loc.Dir, DBFile)); errors.Is(err, fs.ErrNotExist) {
		return recall.Errorf(recall.ENOTFOUND, "No store at %s (%s): run `recall init` to create one (`recall init --global` for the global store), or check --store and RECALL_STORE.", loc.Dir, loc.Reason)
	} else if err != nil {
		return recall.Errorf(recall.EUNAVAILABLE, "Cannot read the store at %s: %v.", loc.Dir, err)
	}
	return nil
}

// GlobalStoreDir is $XDG_DATA_HOME/recall, by default ~/.local/share/recall.
func GlobalStoreDir() (string, error) {
	if x := os.Getenv("XDG_DATA_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "recall"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", recall.Errorf(recall.EINVALID, "Cannot find the home directory for the global store: set XDG_DATA_HOME or RECALL_STORE.")
	}
	return filepath.Join(home, ".local", "share", "recall"), nil
}
