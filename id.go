package recall

import (
	"crypto/rand"
	"encoding/hex"
)

// IDPrefix starts every memory id. The same token ends a managed markdown
// line (`^trXXXXXXXXXX`), so an entry round-trips between store and files.
const IDPrefix = "tr"

var idRE = lazyRegexp(`^tr[0-9a-f]{10}$`)

// NewID returns a fresh memory id: "tr" and 10 lowercase hex digits.
func NewID() string {
	var b [5]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return IDPrefix + hex.EncodeToString(b[:])
}

// IsID reports whether s has the form of a memory id.
func IsID(s string) bool { return idRE().MatchString(s) }

var rollupIDRE = lazyRegexp(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// IsRollupID reports whether s has the form of a rollup id: a lower-case
// UUID. A key could have that form too: look memories up first.
func IsRollupID(s string) bool { return rollupIDRE().MatchString(s) }
