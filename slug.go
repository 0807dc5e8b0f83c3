package recall

import (
	"strings"
)

var (
	slugRE   = lazyRegexp(`^[a-z0-9][a-z0-9._-]*$`)
	nonAlnum = lazyRegexp(`[^a-z0-9]+`)
)

// Limits on names. Slugs cannot hold a path separator or start with a dot,
// so no name can reach outside the store.
const (
	MaxCollectionLen  = 64
	MaxKeyLen         = 80
	DefaultCollection = "default"
)

// Slugify turns text into a key the way seed 002 does: lower case, runs of
// anything but a-z0-9 become one hyphen, hyphens trimmed, then cut to 50.
func Slugify(text string) string {
	s := nonAlnum().ReplaceAllString(strings.ToLower(text), "-")
	s = strings.Trim(s, "-")
	if len(s) > 50 {
		s = s[:50]
	}
	return s
}

// ValidateCollection returns EINVALID unless name is a slug of at most 64 characters.
func ValidateCollection(name string) error {
	if len(name) > MaxCollectionLen || !slugRE().MatchString(name) {
		return Errorf(EINVALID, "Invalid collection %q: use lower-case letters, digits, '.', '_' or '-', starting with a letter or digit, at most %d characters.", name, MaxCollectionLen)
	}
	return nil
}

// ValidateKey returns EINVALID unless key is a slug of at most 80 characters.
func ValidateKey(key string) error {
	if len(key) > MaxKeyLen || !slugRE().MatchString(key) {
		return Errorf(EINVALID, "Invalid key %q: use lower-case letters, digits, '.', '_' or '-', starting with a letter or digit, at most %d characters.", key, MaxKeyLen)
	}
	return nil
}
