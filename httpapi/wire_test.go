package httpapi

import (
	"net/url"
	"reflect"
	"testing"
)

// FuzzParseFilter checks that any query the parser accepts survives an
// encode and a second parse unchanged, so the client and server agree.
func FuzzParseFilter(f *testing.F) {
	for _, s := range []string{
		"collection=work&type=fact&pinned=true&limit=5&offset=2",
		"filter=tags=api&filter=tags=auth&filter=metadata.source=a,b",
		"status=*&since=2026-01-02T03:04:05Z&until=2026-02-01T00:00:00.5Z",
		"filter==x", "pinned=maybe", "limit=-3", "key=&id=",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		filter, err := parseFilter(q)
		if err != nil {
			return
		}
		out := url.Values{}
		encodeFilter(out, filter)
		again, err := parseFilter(out)
		if err != nil {
			t.Fatalf("re-parse of %q: %v", out.Encode(), err)
		}
		if !reflect.DeepEqual(filter, again) {
			t.Fatalf("round trip changed the filter:\n%+v\n%+v", filter, again)
		}
	})
}

// FuzzParseObservationFilter checks the same round trip for observation
// filters.
func FuzzParseObservationFilter(f *testing.F) {
	for _, s := range []string{
		"type=command&session=s1&desc=true&limit=3",
		"q=nil+map&since=2026-01-02T03:04:05Z&id=7",
		"id=x", "desc=maybe", "until=2026-01-02T03:04:05+02:00",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		filter, err := parseObservationFilter(q)
		if err != nil {
			return
		}
		out := url.Values{}
		encodeObservationFilter(out, filter)
		again, err := parseObservationFilter(out)
		if err != nil {
			t.Fatalf("re-parse of %q: %v", out.Encode(), err)
		}
		if !reflect.DeepEqual(filter, again) {
			t.Fatalf("round trip changed the filter:\n%+v\n%+v", filter, again)
		}
	})
}
