package recall

import (
	"strings"
	"unicode"
)

// MaxTypeLen is the longest memory type accepted.
const MaxTypeLen = 64

// ValidateTier returns EINVALID unless tier is empty or one of the three tiers.
func ValidateTier(tier string) error {
	switch tier {
	case "", TierWorking, TierRegister, TierArchive:
		return nil
	}
	return Errorf(EINVALID, "Invalid tier %q: use working, register or archive.", tier)
}

// ValidateStatus returns EINVALID unless status is empty or a memory status.
func ValidateStatus(status string) error {
	switch status {
	case "", StatusActive, StatusSuperseded, StatusArchived, StatusCompacted:
		return nil
	}
	return Errorf(EINVALID, "Invalid status %q: use active, superseded, archived or compacted.", status)
}

// ValidateType returns EINVALID unless typ is one word (no spaces or
// control characters) of at most 64 bytes: types are filtered and grouped
// by exact value, so "two words" would be a type nobody can type back.
func ValidateType(typ string) error {
	bad := len(typ) > MaxTypeLen || strings.IndexFunc(typ, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0
	if bad {
		return Errorf(EINVALID, "Invalid type %q: a type is one word of at most %d characters, like decision, fact or note; join words with '-' or '_'.", typ, MaxTypeLen)
	}
	return nil
}

// Validate returns EINVALID when f asks for something no memory can be: an
// unknown tier or status (status also takes "*" and "any"), a type that is
// not one word, or a negative limit or offset. Every interface checks a
// filter with it before listing, so a typo is an error, not an empty result.
func (f MemoryFilter) Validate() error {
	if f.Tier != nil && *f.Tier != "" {
		if err := ValidateTier(*f.Tier); err != nil {
			return err
		}
	}
	if f.Status != nil && *f.Status != "*" && *f.Status != "any" && *f.Status != "" {
		if err := ValidateStatus(*f.Status); err != nil {
			return Errorf(EINVALID, "Invalid status %q: use active, superseded, archived, compacted or any.", *f.Status)
		}
	}
	if f.Type != nil && *f.Type != "" {
		if err := ValidateType(*f.Type); err != nil {
			return err
		}
	}
	if f.Limit < 0 {
		return Errorf(EINVALID, "Invalid limit %d: give a number of memories, or 0 for all.", f.Limit)
	}
	if f.Offset < 0 {
		return Errorf(EINVALID, "Invalid offset %d: give how many memories to skip, 0 or more.", f.Offset)
	}
	return nil
}
