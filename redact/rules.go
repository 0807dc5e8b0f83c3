package redact

import (
	"encoding/base64"
	"math"
	"strings"

	"github.com/recall-mem/recall/internal/lazyre"
)

// builtinRules lists the detectors, most specific first: a provider key
// inside a password= assignment is reported as the provider's key. With
// anchor, every match must start with one of the rule's hints. Each
// expression compiles when its rule first runs: a rule with hints runs
// only when one occurs, so a hook whose text holds no "sk-" never
// compiles the OpenAI expression (all of them, and the anchored copies,
// cost a process 0.6 ms and 2,600 allocations).
func builtinRules() []rule {
	return []rule{
		{kind: KindPrivateKey, hints: []string{"PRIVATE KEY"}, re: lazyre.New(`-----BEGIN[A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----[\s\S]*?(?:-----END[A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----|\z)`)},
		{kind: KindJWT, hints: []string{"eyJ"}, bounded: true, re: lazyre.New(`eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{10,}`)},
		{kind: KindAnthropic, hints: []string{"sk-ant-"}, bounded: true, re: lazyre.New(`sk-ant-[A-Za-z0-9_-]{20,}`)},
		{kind: KindOpenAI, hints: []string{"sk-"}, bounded: true, re: lazyre.New(`sk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}`), keep: notMixed},
		{kind: KindAWSKeyID, hints: awsPrefixes, bounded: true, re: lazyre.New(`(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA)[A-Z0-9]{16}`)},
		{kind: KindGitHub, hints: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"}, bounded: true, re: lazyre.New(`gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255}`)},
		{kind: KindSlack, hints: []string{"xox", "hooks.slack.com"}, re: lazyre.New(`\bxox[abposre]-[A-Za-z0-9-]{10,}|https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9/_-]{20,}`)},
		{kind: KindStripe, hints: []string{"_live_", "_test_", "whsec_"}, bounded: true, re: lazyre.New(`(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{24,}`)},
		{kind: KindGoogle, hints: []string{"AIza", "ya29.", "GOCSPX-"}, bounded: true, re: lazyre.New(`AIza[0-9A-Za-z_-]{35}|ya29\.[0-9A-Za-z_-]{20,}|GOCSPX-[0-9A-Za-z_-]{20,}`)},
		{kind: KindConnString, hints: []string{"://"}, re: lazyre.New(`\b[a-zA-Z][a-zA-Z0-9+.-]{1,20}://[^\s:/@'"]+:([^\s@/'"]+)@`), group: 1, keep: placeholder},
		{kind: KindBearer, hints: []string{"bearer", "token", "basic"}, fold: true, anchor: true, re: lazyre.New(`(?i)(?:bearer|token|basic)\s+([A-Za-z0-9._~+/-]{16,}=*)`), group: 1, keep: notTokenLike},
		{kind: KindPassword, hints: []string{"pass", "pwd", "secret", "token", "api", "access", "auth", "private", "credential"}, fold: true, anchor: true,
			re: lazyre.New(`(?i)(?:password|passwd|pwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key|auth[_-]?key|private[_-]?key|credentials?)["']?\s*(?:=|:=|:|=>)\s*["']?([^\s"',;]{4,})`), group: 1, keep: notAssignedSecret},
		{kind: KindEntropy, runs: true, re: lazyre.New(`([A-Za-z_][A-Za-z0-9_.-]*)["']?\s*(?:=|:=|:|=>)\s*["']?([A-Za-z0-9+/_=-]{20,})`), group: 2, keep: lowEntropy, name: 1},
	}
}

var awsPrefixes = []string{"AKIA", "ASIA", "ABIA", "ACCA", "AGPA", "AIDA", "AROA", "AIPA", "ANPA", "ANVA"}

// notMixed keeps candidates without both letters and digits ("sk-learn-…"
// words joined by hyphens are not keys).
func notMixed(s string) bool {
	return !hasDigit(s) || !hasLetter(s)
}

// placeholder keeps values that are references or templates, not secrets.
func placeholder(s string) bool {
	l := strings.ToLower(s)
	switch {
	case strings.HasPrefix(s, "$"), strings.HasPrefix(s, "{{"), strings.HasPrefix(s, "<"), strings.HasPrefix(s, "%"),
		strings.HasPrefix(s, "[REDACTED"), strings.Trim(s, "*xX.") == "", strings.HasPrefix(s, "process.env"),
		strings.HasPrefix(l, "os.getenv"), strings.HasPrefix(l, "os.environ"), strings.HasPrefix(l, "env."):
		return true
	}
	return false
}

// notTokenLike keeps words after "bearer"/"token" that are prose, not
// credentials: a credential has digits or mixed case.
func notTokenLike(s string) bool {
	return placeholder(s) || !hasDigit(s) && (strings.ToLower(s) == s || strings.ToUpper(s) == s)
}

// notAssignedSecret keeps assignment values that are code or
// configuration rather than a credential: references, calls, booleans,
// numbers of a few digits and placeholders.
func notAssignedSecret(s string) bool {
	l := strings.ToLower(strings.Trim(s, "()[]{}"))
	switch l {
	case "true", "false", "null", "none", "nil", "undefined", "required", "optional", "string", "str", "bool", "int", "bytes", "redacted", "":
		return true
	}
	return placeholder(s) || strings.ContainsAny(s, "()[]{}") || strings.HasPrefix(s, "&") ||
		strings.HasPrefix(s, "[REDACTED") || isDecimal(s) && len(s) < 6
}

// lowEntropy keeps assignment values that do not look random: hex digests
// and commit hashes, UUIDs, words, paths, blobs over 200 bytes (images,
// not credentials), and values without both letters and digits.
func lowEntropy(s string) bool {
	switch {
	case digestPrefix().MatchString(s), encodedText(s):
		return true
	case len(s) > 200, isHex(s), uuidRE().MatchString(s), strings.Contains(s, "//"), strings.HasPrefix(s, "/"),
		!hasDigit(s), !hasLetter(s), strings.ToLower(s) == s || strings.ToUpper(s) == s:
		return true
	}
	// A random string of n distinct symbols has log2(n) bits per byte; ask
	// for most of that, capped at 4 bits for long values.
	return entropy(s) < min(4.0, 0.85*math.Log2(float64(len(s))))
}

// digestPrefix marks subresource-integrity style digests.
var digestPrefix = lazyre.New(`^(?i:sha1|sha256|sha384|sha512|md5)-`)

// dataName matches assignment names whose values are identifiers, digests
// or payloads rather than credentials.
var dataName = lazyre.New(`(?i)(?:^|[_.-])(?:id|ids|uuid|guid|hash|digest|checksum|integrity|sha\d*|md5|etag|commit|rev|revision|ref|body|content|data|image|img|thumbnail|icon|src|href|url|path|file|name|title|version)$`)

// encodedText reports whether s is base64 of mostly printable text: an
// encoded message, not a random credential.
func encodedText(s string) bool {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil && len(b) > 0 {
			printable := 0
			for _, c := range b {
				if c >= 0x20 && c < 0x7f || c == '\n' || c == '\t' {
					printable++
				}
			}
			return printable*10 >= len(b)*9
		}
	}
	return false
}

var uuidRE = lazyre.New(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// entropy is the Shannon entropy of s in bits per byte.
func entropy(s string) float64 {
	var freq [256]int
	for i := 0; i < len(s); i++ {
		freq[s[i]]++
	}
	var h float64
	n := float64(len(s))
	for _, c := range freq {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

func hasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

func hasLetter(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c >= 'a' && c <= 'z' {
			return true
		}
	}
	return false
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return s != ""
}

func isDecimal(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
