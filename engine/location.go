package engine

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/recall-mem/recall"
)

const (
	ProjectDir = ".recall"
	DBFile     = "recall.db"
	ConfigFile = "config.toml"
)

// Location is a resolved store directory and why it was chosen.
type Location struct {
	Dir    string `json:"dir"`
	Reason string `json:"reason"`
	Kind   string `json:"kind"` // project or global
}

// ResolveStore finds the store: --store, $RECALL_STORE, the nearest .recall/
// above the working directory, else the global store; --global forces the
// global one.
func ResolveStore(flag string, global bool) (*Location, error) {
	if global {
		dir, err := GlobalStoreDir()
		return &Location{Dir: dir, Reason: "--global", Kind: "global"}, err
	}
	if flag != "" {
		dir, err := filepath.Abs(flag)
		return &Location{Dir: dir, Reason: "--store flag", Kind: "explicit"}, err
	}
	if env := os.Getenv("RECALL_STORE"); env != "" {
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
// database yet.
func StoreExists(loc *Location) error {
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
