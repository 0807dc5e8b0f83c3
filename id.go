package recall

import (
	"crypto/rand"
	"encoding/hex"
	"regexp"
	"strings"
)

// IDPrefix starts every memory id. The same token ends a managed markdown
// line (`^trXXXXXXXXXX`), so an entry round-trips between store and files.
const IDPrefix = "tr"

var (
	idRE     = regexp.MustCompile(`^tr[0-9a-f]{10}$`)
	slugRE   = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*$`)
	h1RE     = regexp.MustCompile(`(?m)^#[ \t]+(.+?)[ \t]*#*[ \t]*$`)
	nonAlnum = regexp.MustCompile(`[^a-z0-9]+`)
)

// Limits on names. Slugs cannot hold a path separator or start with a dot,
// so no name can reach outside the store.
const (
	MaxCollectionLen  = 64
	MaxKeyLen         = 80
	DefaultCollection = "default"
)

// NewID returns a fresh memory id: "tr" and 10 lowercase hex digits.
func NewID() string {
	var b [5]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return IDPrefix + hex.EncodeToString(b[:])
}

// IsID reports whether s has the form of a memory id.
func IsID(s string) bool { return idRE.MatchString(s) }

// Slugify turns text into a key the way seed 002 does: lower case, runs of
// anything but a-z0-9 become one hyphen, hyphens trimmed, then cut to 50.
func Slugify(text string) string {
	s := nonAlnum.ReplaceAllString(strings.ToLower(text), "-")
	s = strings.Trim(s, "-")
	if len(s) > 50 {
		s = s[:50]
	}
	return s
}

// FirstH1 returns the text of the first level-one ATX heading, or "".
func FirstH1(content string) string {
	m := h1RE.FindStringSubmatch(content)
	if m == nil {
		return ""
	}
	return strings.TrimSpace(m[1])
}

// ValidateCollection returns EINVALID unless name is a slug of at most 64 characters.
func ValidateCollection(name string) error {
	if len(name) > MaxCollectionLen || !slugRE.MatchString(name) {
		return Errorf(EINVALID, "Invalid collection %q: use lower-case letters, digits, '.', '_' or '-', starting with a letter or digit, at most %d characters.", name, MaxCollectionLen)
	}
	return nil
}

// ValidateKey returns EINVALID unless key is a slug of at most 80 characters.
func ValidateKey(key string) error {
	if len(key) > MaxKeyLen || !slugRE.MatchString(key) {
		return Errorf(EINVALID, "Invalid key %q: use lower-case letters, digits, '.', '_' or '-', starting with a letter or digit, at most %d characters.", key, MaxKeyLen)
	}
	return nil
}
