package recall

import (
	"io/fs"
	"strings"
)

// MaxAnchorPathLen bounds an anchor's path.
const MaxAnchorPathLen = 1024

// ValidateAnchors returns EINVALID unless every anchor's path is a clean
// relative path inside the project: slash-separated, without "." or ".."
// elements, a leading "/" or a NUL. This is the part the store can check
// without the file system; whoever reads an anchored file checks that it
// still resolves inside the project (symbolic links) and is a regular file.
func ValidateAnchors(anchors []Anchor) error {
	for _, a := range anchors {
		p := a.Path
		if len(p) > MaxAnchorPathLen || p == "." || !fs.ValidPath(p) || strings.ContainsRune(p, 0) {
			return Errorf(EINVALID, "Invalid anchor path %.200q: anchors are files relative to the project root, like src/parse.go, without \"..\" or a leading \"/\".", p)
		}
	}
	return nil
}

// Anchor ties a memory to a file so that a change to the file can flag the
// memory as stale. Path is relative to the project root.
type Anchor struct {
	Path string `json:"path"`
	Hash string `json:"hash"` // hex SHA-256 of the file when anchored or last reviewed
}
