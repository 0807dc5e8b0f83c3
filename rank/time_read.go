package rank

import (
	"context"
	"reflect"
	"time"

	"github.com/recall-mem/recall"
)

// timeRead is a query's time words as a parser read them at a time: a
// searcher above this one (rollup.Searcher) reads them for its own part
// and hands them down with the query, so that a request reads them once.
type timeRead struct {
	parser recall.TimeParser
	text   string
	now    time.Time
	in     recall.TimeIntent
}

type timeReadKey struct{}

// WithTimeRead returns ctx carrying in, what p read of text at now. A
// Searcher given ctx takes in instead of reading the words itself when it
// would ask the same of the same parser: the same text, the same time
// (location included), a parser of the same type and value.
func WithTimeRead(ctx context.Context, p recall.TimeParser, text string, now time.Time, in recall.TimeIntent) context.Context {
	return context.WithValue(ctx, timeReadKey{}, &timeRead{parser: p, text: text, now: now, in: in})
}

// parseTime is s.Time's reading of text at now, from ctx when it holds it.
func (s *Searcher) parseTime(ctx context.Context, text string, now time.Time) recall.TimeIntent {
	if r, ok := ctx.Value(timeReadKey{}).(*timeRead); ok && r.text == text && r.now == now && sameParser(r.parser, s.Time) {
		return r.in
	}
	return s.Time.ParseTime(text, now)
}

// sameParser reports whether a and b are the same parser: of one type,
// and equal values of it. Values that cannot be compared never are: a
// struct type reports itself comparable even when an interface field
// holds a slice or map, where == would panic, so the values are asked.
func sameParser(a, b recall.TimeParser) bool {
	ta := reflect.TypeOf(a)
	return ta != nil && ta == reflect.TypeOf(b) &&
		reflect.ValueOf(a).Comparable() && reflect.ValueOf(b).Comparable() && a == b
}
