package postgres_test

import (
	"context"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/internal/pgtest"
	"github.com/recall-mem/recall/postgres"
)

// TestOpenErrorHidesPassword checks that no error of a failed open quotes
// the password, in any encoding, whatever the driver puts in its message.
func TestOpenErrorHidesPassword(t *testing.T) {
	ctx := context.Background()
	good := pgtest.NewDatabase(t) // a cluster that answers, to reach auth and database errors too
	host := good[strings.Index(good, "host="):]
	host = host[:strings.IndexAny(host+"&", "&")]
	for _, raw := range []string{
		"postgres://alice:p%40ss-S3CRET@127.0.0.1:1/recall?connect_timeout=2",        // nothing listens
		"postgres://alice:p%40ss-S3CRET@/nosuchdb?" + host,                           // unknown role
		"postgres://alice:p%40ss-S3CRET@/nosuchdb?" + host + "&sslmode=bogus",        // unparsable option
		"postgres://recall:p%40ss-S3CRET@/nosuchdb?" + host + "&namespace=Not+Valid", // bad namespace
		"postgres://alice:p%40ss-S3CRET@[::1/recall",                                 // not a URL
	} {
		db, err := postgres.Open(ctx, raw)
		if err == nil {
			db.Close()
			t.Fatalf("Open(%s) succeeded", recall.RedactURL(raw))
		}
		t.Log(err)
		if recall.ErrorMessage(err) == "" {
			t.Errorf("error without a message: %v", err)
		}
		for _, secret := range []string{"S3CRET", "p@ss", "p%40ss"} {
			if strings.Contains(err.Error(), secret) {
				t.Errorf("error quotes the password: %v", err)
			}
		}
	}
}
