package engine

import (
	"context"
	"os"
	"path/filepath"
)

// InitResult is what Init did.
type InitResult struct {
	Dir     string // the store directory, absolute
	Created bool   // false when a store was there already
	Reason  string // which store it is, in words
}

// Init creates the store `recall init` names: the global store with
// GlobalFlag, else the StoreFlag directory, else .recall/ in the working
// directory. The directory is made 0700 and the store opened (created with
// its .gitignore when new); an existing store is opened as it is. The
// engine then points at it whatever the flags said.
func (e *Engine) Init(ctx context.Context) (*InitResult, error) {
	dir := filepath.Join(".", ProjectDir)
	reason := "project store in the working directory"
	if e.GlobalFlag {
		var err error
		if dir, err = GlobalStoreDir(); err != nil {
			return nil, err
		}
		reason = "global store"
	} else if e.StoreFlag != "" && !IsStoreURL(e.StoreFlag) {
		dir, reason = e.StoreFlag, "--store flag"
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	_, statErr := os.Stat(filepath.Join(abs, DBFile))
	existed := statErr == nil
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return nil, err
	}
	if err := os.Chmod(abs, 0o700); err != nil {
		return nil, err
	}
	if IsStoreURL(e.StoreFlag) {
		// The server keeps the memories; the directory keeps config.toml
		// and the managed files, and is where the URL is looked up from.
		reason = "store on a server, " + reason
	} else {
		e.StoreFlag, e.GlobalFlag = abs, false
	}
	if err := e.OpenForWrite(ctx); err != nil {
		return nil, err
	}
	return &InitResult{Dir: abs, Created: !existed, Reason: reason}, nil
}
