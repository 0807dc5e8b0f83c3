package hook

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// backup copies the content old of path into dir under a name no earlier
// backup has: the file's name without its leading dot, the time to the
// second, and a counter when that name is taken. The file is created
// exclusively, so a backup is never overwritten, not even by one of the
// same second.
func backup(dir, path string, old []byte, now time.Time) (string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	stem := strings.TrimPrefix(filepath.Base(path), ".") + "." + now.UTC().Format("20060102T150405Z")
	for i := 1; ; i++ {
		name := filepath.Join(dir, stem+".bak")
		if i > 1 {
			name = filepath.Join(dir, fmt.Sprintf("%s-%d.bak", stem, i))
		}
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		} else if err != nil {
			return "", err
		}
		_, err = f.Write(old)
		if serr := f.Sync(); err == nil {
			err = serr
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(name) // a torn backup is worse than none: it would pass for the original
			return "", err
		}
		return name, nil
	}
}
