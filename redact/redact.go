// Package redact removes secrets from text before recall writes it: provider
// API keys, private key blocks, JWTs, bearer tokens, credentials in
// assignments and connection strings, high-entropy values in assignment
// context, and <private>…</private> spans. Each secret becomes
// [REDACTED:kind]; callers get counts per kind, never the secrets.
package redact

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/internal/lazyre"
)

// Kinds of secrets, as written in [REDACTED:kind] and in counts.
const (
	KindPrivate    = "private" // a <private>…</private> span, dropped
	KindPrivateKey = "private_key"
	KindJWT        = "jwt"
	KindAnthropic  = "anthropic_key"
	KindOpenAI     = "openai_key"
	KindAWSKeyID   = "aws_access_key"
	KindGitHub     = "github_token"
	KindSlack      = "slack_token"
	KindStripe     = "stripe_key"
	KindGoogle     = "google_key"
	KindBearer     = "bearer_token"
	KindConnString = "connection_string"
	KindPassword   = "password" // password=, secret=, token=, api_key= … assignments
	KindEntropy    = "high_entropy"
	KindCustom     = "custom"
)

// Redactor replaces secrets in text. The zero value is not usable: build
// one with New.
type Redactor struct {
	rules      []rule
	allow      []*regexp.Regexp
	allowExact map[string]bool
}

var _ recall.Redactor = (*Redactor)(nil)

// Config adds to the built-in rules.
type Config struct {
	// Patterns are extra regular expressions, "kind=REGEXP" or a bare
	// REGEXP (kind "custom"). A first capture group, when present, is the
	// secret; otherwise the whole match is.
	Patterns []string
	// Allow lists values never redacted: a value equal to an entry, or fully
	// matching it as a regular expression, is kept.
	Allow []string
}

// privateSpan is dropped, tags included; an unclosed tag drops the rest of
// the text, which errs on the side of keeping a secret out.
var privateSpan = lazyre.New(`(?is)<private>.*?(?:</private>|\z)`)

// builtin is builtinRules with the anchored expressions, made once a
// process: every Redactor shares the compiled expressions (a Regexp is safe
// for concurrent use), each compiled when its rule first runs.
var builtin = sync.OnceValue(func() []rule {
	rules := builtinRules()
	for i := range rules {
		if ru := &rules[i]; ru.anchor {
			re := ru.re
			ru.anchored = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:` + re().String() + `)`) })
		}
	}
	return rules
})

// New returns a redactor with the built-in rules and cfg's additions.
// Returns EINVALID for a pattern or allow entry that does not compile.
func New(cfg Config) (*Redactor, error) {
	r := &Redactor{rules: slices.Clone(builtin())}
	for _, p := range cfg.Patterns {
		kind, expr := KindCustom, p
		if i := strings.Index(p, "="); i > 0 && isKindName(p[:i]) {
			kind, expr = p[:i], p[i+1:]
		}
		re, err := regexp.Compile(expr)
		if err != nil {
			return nil, recall.Errorf(recall.EINVALID, "Invalid [redact] pattern %q: %v. Fix it in config.toml.", p, err)
		}
		g := 0
		if re.NumSubexp() > 0 {
			g = 1
		}
		r.rules = append(r.rules, rule{kind: kind, re: func() *regexp.Regexp { return re }, group: g})
	}
	r.allowExact = map[string]bool{}
	for _, a := range cfg.Allow {
		r.allowExact[a] = true
		re, err := regexp.Compile(`^(?:` + a + `)$`)
		if err != nil {
			return nil, recall.Errorf(recall.EINVALID, "Invalid [redact] allow entry %q: %v. Fix it in config.toml.", a, err)
		}
		r.allow = append(r.allow, re)
	}
	return r, nil
}

// MustNew is New for configurations known to be valid.
func MustNew(cfg Config) *Redactor {
	r, err := New(cfg)
	if err != nil {
		panic(err)
	}
	return r
}

func isKindName(s string) bool {
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return s != ""
}

// span is one secret found in the text.
type span struct {
	start, end int
	kind       string
}

// Redact returns text with every secret replaced and counts per kind.
func (r *Redactor) Redact(text string) (string, map[string]int) {
	var counts map[string]int
	count := func(kind string, n int) {
		if n == 0 {
			return
		}
		if counts == nil {
			counts = map[string]int{}
		}
		counts[kind] += n
	}
	lower := asciiLower(text)
	if strings.Contains(lower, "<private>") {
		n := 0
		text = privateSpan().ReplaceAllStringFunc(text, func(string) string { n++; return "" })
		count(KindPrivate, n)
		lower = asciiLower(text)
	}
	// Rules run in order over the text as it was; a later rule's match that
	// overlaps an earlier one is skipped, so the most specific kind wins.
	var spans []span
	for i := range r.rules {
		ru := &r.rules[i]
		for _, m := range ru.find(text, lower) {
			s, e := m[2*ru.group], m[2*ru.group+1]
			if s < 0 || s == e {
				continue
			}
			secret := text[s:e]
			if ru.keep != nil && ru.keep(secret) || r.allowed(secret) || overlaps(spans, s, e) ||
				ru.name > 0 && m[2*ru.name] >= 0 && dataName().MatchString(text[m[2*ru.name]:m[2*ru.name+1]]) {
				continue
			}
			spans = append(spans, span{s, e, ru.kind})
		}
	}
	if len(spans) == 0 {
		return text, counts
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	var b strings.Builder
	last := 0
	for _, sp := range spans {
		b.WriteString(text[last:sp.start])
		fmt.Fprintf(&b, "[REDACTED:%s]", sp.kind)
		last = sp.end
		count(sp.kind, 1)
	}
	b.WriteString(text[last:])
	return b.String(), counts
}

func (r *Redactor) allowed(secret string) bool {
	if r.allowExact[secret] {
		return true
	}
	for _, re := range r.allow {
		if re.MatchString(secret) {
			return true
		}
	}
	return false
}

func overlaps(spans []span, s, e int) bool {
	for _, sp := range spans {
		if s < sp.end && sp.start < e {
			return true
		}
	}
	return false
}
