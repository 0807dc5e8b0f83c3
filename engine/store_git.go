package engine

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// StoreGitignore keeps a store out of git: a project store holds captured
// prompts, commands and their output, which a `git add -A` would publish.
// The pattern matches the .gitignore itself, so the directory never shows
// up as untracked either.
const StoreGitignore = "# recall store: captured prompts and commands stay out of git\n*\n"

// WriteStoreGitignore writes dir/.gitignore unless one exists.
func WriteStoreGitignore(dir string) error {
	f, err := os.OpenFile(filepath.Join(dir, ".gitignore"), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil
	} else if err != nil {
		return err
	}
	if _, err := f.WriteString(StoreGitignore); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
