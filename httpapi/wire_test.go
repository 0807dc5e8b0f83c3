package httpapi

import (
	"net/url"
	"reflect"
	"testing"
)

// roundTrip checks that a query the parser accepts survives an encode and
// a second parse unchanged, so that the client and the server agree.
func roundTrip[F any](t *testing.T, raw string, parse func(url.Values) (F, error), encode func(url.Values, F)) {
	q, err := url.ParseQuery(raw)
	if err != nil {
		return
	}
	f, err := parse(q)
	if err != nil {
		return
	}
	out := url.Values{}
	encode(out, f)
	again, err := parse(out)
	if err != nil {
		t.Fatalf("re-parse of %q: %v", out.Encode(), err)
	}
	if !reflect.DeepEqual(f, again) {
		t.Fatalf("round trip changed the filter:\n%+v\n%+v", f, again)
	}
}

func FuzzParseFilter(f *testing.F) {
	for _, s := range []string{
		"collection=work&type=fact&pinned=true&limit=5&offset=2",
		"filter=tags=api&filter=tags=auth&filter=metadata.source=a,b",
		"status=*&since=2026-01-02T03:04:05Z&until=2026-02-01T00:00:00.5+02:00",
		"filter==x", "pinned=maybe", "limit=-3", "key=&id=",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) { roundTrip(t, raw, parseFilter, encodeFilter) })
}

func FuzzParseObservationFilter(f *testing.F) {
	for _, s := range []string{
		"type=command&session=s1&desc=true&limit=3",
		"q=nil+map&since=2026-01-02T03:04:05Z&id=7",
		"id=x", "desc=maybe", "until=2026-01-02T03:04:05+02:00",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) { roundTrip(t, raw, parseObservationFilter, encodeObservationFilter) })
}
