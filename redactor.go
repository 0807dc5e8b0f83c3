package recall

// Redactor removes secrets from text before anything is written.
type Redactor interface {
	// Redact returns text with every secret replaced by [REDACTED:kind]
	// and the number of replacements per kind (never the secrets).
	Redact(text string) (string, map[string]int)
}
