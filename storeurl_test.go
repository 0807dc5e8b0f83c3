package recall_test

import (
	"testing"

	"github.com/recall-mem/recall"
)

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://alice:s3cret@db.example:5432/recall":               "postgres://alice:xxxxx@db.example:5432/recall",
		"postgres://alice@db.example/recall":                           "postgres://alice@db.example/recall",
		"postgres://db.example/recall?user=alice&password=s3cret":      "postgres://db.example/recall?password=xxxxx&user=alice",
		"postgres://alice:p%40ss%2Fw0rd@db.example/recall?namespace=x": "postgres://alice:xxxxx@db.example/recall?namespace=x",
	} {
		if got := recall.RedactURL(in); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", in, got, want)
		}
	}
}
