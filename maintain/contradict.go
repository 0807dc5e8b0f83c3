package maintain

import (
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/internal/lazyre"
	"github.com/recall-mem/recall/prose"
)

// claim is an entry broken into the parts contradiction checks compare.
type claim struct {
	s        state
	norm     string          // the text, lower-case, whitespace collapsed
	key, val string          // "key: value" entries
	plain    map[string]bool // content words other than names, numbers, dates, negations
	words    []int           // plain as sorted word numbers, for fast intersections
	names    map[string]bool // capitalised words not opening a sentence
	numbers  map[string]bool
	dates    map[string]bool
	negated  bool
}

var (
	keyValueRE = lazyre.New(`^\s*(?:\[[ xX]\]\s*)?([^:=]{2,60}?)\s*(?::|=)\s+(\S.*?)\s*$`)
	dateRE     = lazyre.New(`(?i)\b(\d{4}-\d{2}-\d{2}|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?)\b`)
	numberRE   = lazyre.New(`^\d+(?:[.,]\d+)*%?$`)
	negations  = setOf("not no never none nobody nothing neither nor without cannot")
	// ignored are the shared stopwords (prose) that claims leave out of
	// their content words: the core function words only. With all of
	// prose's list, short entries lose so many words that pleasantries
	// pass as near-duplicates (LoCoMo dev's 2,960 turns: 13 flags against
	// 10, the new ones chat such as "Wow, that looks great! What kind of
	// yoga is it?").
	ignored = prose.Subset("a an the and or of to in on at for with by from is are was were be been it its this that as we i you he she they our their his her my your")
	// labels open many unrelated entries ("Note: …", "Decision: …"), so
	// they are no key to compare values by.
	labels = setOf("note notes todo decision preference rule fact important warning tip idea question reminder update fyi context summary example see")
)

func setOf(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

func parseClaim(s state) claim {
	c := claim{s: s, plain: map[string]bool{}, names: map[string]bool{}, numbers: map[string]bool{}, dates: map[string]bool{}}
	text := s.Text
	c.norm = normalise(text)
	if m := keyValueRE().FindStringSubmatch(text); m != nil && len(strings.Fields(m[1])) <= 6 && !labels[normalise(m[1])] {
		c.key = normalise(m[1])
		c.val = normalise(m[2])
	}
	for _, d := range dateRE().FindAllString(text, -1) {
		c.dates[strings.ToLower(d)] = true
	}
	text = dateRE().ReplaceAllString(text, " ")
	sentenceStart := true
	for _, raw := range strings.Fields(text) {
		w := strings.TrimFunc(raw, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '%' && r != '\'' })
		lower := strings.ToLower(w)
		first, _ := utf8.DecodeRuneInString(w)
		switch {
		case w == "":
		case numberRE().MatchString(w):
			c.numbers[w] = true
		case negations[lower] || strings.HasSuffix(lower, "n't"):
			c.negated = true
		case unicode.IsUpper(first) && !sentenceStart && w != "I":
			c.names[lower] = true
		case !ignored[lower]:
			c.plain[lower] = true
		}
		sentenceStart = strings.HasSuffix(raw, ".") || strings.HasSuffix(raw, "!") || strings.HasSuffix(raw, "?") || strings.HasSuffix(raw, ":")
	}
	return c
}

func normalise(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(strings.Trim(s, " .;,")), " "))
}

// contradictions flags pairs of active entries, in any tiers, that make
// conflicting claims: the same key with different values ("Deploy target:
// AWS" against "Deploy target: GCP"), or near-duplicates that disagree on
// exactly one of a number, a date, a name or a negation ("Using Postgres
// 15" against "Using Postgres 16"). Disagreeing on several at once means
// they are about different things, not in conflict.
func contradictions(states []state, unit string, now time.Time) []recall.MaintainFinding {
	var claims []claim
	vocab := map[string]int{}
	for _, s := range states {
		if s.status != recall.StatusActive {
			continue
		}
		c := parseClaim(s)
		for w := range c.plain {
			n, ok := vocab[w]
			if !ok {
				n = len(vocab)
				vocab[w] = n
			}
			c.words = append(c.words, n)
		}
		sort.Ints(c.words)
		claims = append(claims, c)
	}
	var out []recall.MaintainFinding
	for i := range claims {
		for j := i + 1; j < len(claims); j++ {
			a, b := &claims[i], &claims[j]
			reason := conflict(a, b)
			if reason == "" {
				continue
			}
			ca, cb := candidate(a.s, unit, now), candidate(b.s, unit, now)
			out = append(out, recall.MaintainFinding{
				Kind: recall.FindingContradiction, IDs: []string{a.s.ID, b.s.ID}, Message: reason,
				Actions: []string{ActSupersede, ActUpdate, ActKeep}, Entries: []recall.MaintainCandidate{ca, cb},
			})
		}
	}
	return out
}

// conflict says how two claims conflict, or "".
func conflict(a, b *claim) string {
	if a.norm == b.norm {
		return ""
	}
	if a.key != "" && a.key == b.key {
		if a.val != b.val {
			return fmt.Sprintf("same key %q with different values", a.key)
		}
		return ""
	}
	la, lb := len(a.words), len(b.words)
	if 10*min(la, lb) < 6*max(la, lb) {
		return "" // even all shared could not reach the similarity needed
	}
	shared := 0
	for i, j := 0, 0; i < la && j < lb; {
		switch {
		case a.words[i] == b.words[j]:
			shared++
			i++
			j++
		case a.words[i] < b.words[j]:
			i++
		default:
			j++
		}
	}
	union := la + lb - shared
	if shared < 2 || float64(shared) < 0.6*float64(union) {
		return ""
	}
	var differ []string
	if !sameSet(a.numbers, b.numbers) {
		differ = append(differ, "a number")
	}
	if !sameSet(a.dates, b.dates) {
		differ = append(differ, "a date")
	}
	if !sameSet(a.names, b.names) {
		differ = append(differ, "a name")
	}
	if a.negated != b.negated {
		differ = append(differ, "a negation")
	}
	if len(differ) != 1 {
		return ""
	}
	return "near-duplicates disagree on " + differ[0]
}

func sameSet(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}
