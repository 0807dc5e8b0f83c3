package recall_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
)

func TestParseFieldFilters(t *testing.T) {
	got, err := recall.ParseFieldFilters([]string{"tags=api, auth", "tags=db", " metadata.source =web,,"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got["tags"], []string{"api", "auth", "db"}) || !slices.Equal(got["metadata.source"], []string{"web"}) || len(got) != 2 {
		t.Fatalf("got %v", got)
	}
	for _, bad := range []string{"tags", "=x", " =x"} {
		if _, err := recall.ParseFieldFilters([]string{bad}); recall.ErrorCode(err) != recall.EINVALID {
			t.Errorf("%q: got %v", bad, err)
		}
	}
}

func TestNormalizeTags(t *testing.T) {
	got := recall.NormalizeTags([]string{" Ops", "deploy", "ops", "", "DEPLOY "})
	if !slices.Equal(got, []string{"ops", "deploy"}) {
		t.Fatalf("got %v", got)
	}
}

// FuzzParseFieldFilters checks that any accepted filter has a field name
// and only trimmed, non-empty values without commas.
func FuzzParseFieldFilters(f *testing.F) {
	for _, s := range []string{"tags=a,b", "metadata.x= y ", "=", "a==b", "tags=,,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, item string) {
		got, err := recall.ParseFieldFilters([]string{item})
		if err != nil {
			return
		}
		for name, vals := range got {
			if name == "" || strings.TrimSpace(name) != name {
				t.Fatalf("field name %q", name)
			}
			for _, v := range vals {
				if v == "" || strings.Contains(v, ",") || strings.TrimSpace(v) != v {
					t.Fatalf("value %q", v)
				}
			}
		}
	})
}
