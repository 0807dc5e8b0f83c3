package bench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// importRSS exports the store in dir with 'recall export' and imports the
// file into a new store with 'recall import', as a user moving a store
// does, and returns the import process's peak resident set size in bytes
// (0 where the system does not say). The new store is removed.
func importRSS(ctx context.Context, exe, dir, configFile string) (int64, error) {
	tmp, err := os.MkdirTemp("", "recall-bench-import-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(tmp)
	file := filepath.Join(tmp, "export.jsonl")
	f, err := os.Create(file)
	if err != nil {
		return 0, err
	}
	export := exec.CommandContext(ctx, exe, "--store", dir, "export")
	export.Args[0] = "recall"
	export.Stdout = f
	var stderr lockedBuffer
	export.Stderr = &stderr
	err = export.Run()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, fmt.Errorf("export: %v: %s", err, stderr.String())
	}
	store := filepath.Join(tmp, "store")
	if err := os.Mkdir(store, 0o700); err != nil {
		return 0, err
	}
	// The new store embeds as the measured one does.
	if conf, err := os.ReadFile(filepath.Join(dir, configFile)); err == nil {
		if err := os.WriteFile(filepath.Join(store, configFile), conf, 0o600); err != nil {
			return 0, err
		}
	}
	imp := exec.CommandContext(ctx, exe, "--store", store, "import", file)
	imp.Args[0] = "recall"
	var out lockedBuffer
	imp.Stdout, imp.Stderr = &out, &out
	rss, err := runPeakRSS(imp)
	if err != nil {
		return 0, fmt.Errorf("import: %v: %s", err, out.String())
	}
	return rss, nil
}
