package prose

import "fmt"

// Plural writes a count with the word that fits it: "1 entry", "3 entries".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
