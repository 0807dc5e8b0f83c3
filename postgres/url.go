package postgres

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/internal/lazyre"
)

// secretRE finds password=… in a key/value connection string that a
// driver error may quote.
var secretRE = lazyre.New(`(?i)(password\s*=\s*)('[^']*'|\S+)`)

// wrap turns a driver error into a recall error that names the store by
// its redacted URL. The driver's text is kept for diagnosis, with the
// password cut out wherever it appears, whatever the driver quoted.
func (db *DB) wrap(code, what string, err error) error {
	msg := err.Error()
	for _, pw := range db.secrets {
		msg = strings.ReplaceAll(msg, pw, "xxxxx")
	}
	msg = secretRE().ReplaceAllString(msg, "${1}xxxxx")
	return recall.Errorf(code, "%s", fmt.Sprintf("PostgreSQL store %s: %s: %s", db.safe, what, msg))
}

// secretsOf returns the passwords in a URL, in the forms an error could
// quote them: percent-decoded and as written.
func secretsOf(raw string) []string {
	u, err := url.Parse(raw)
	if err != nil {
		return nil
	}
	var out []string
	if pw, ok := u.User.Password(); ok && pw != "" {
		out = append(out, pw, url.QueryEscape(pw), url.PathEscape(pw))
	}
	if pw := u.Query().Get("password"); pw != "" {
		out = append(out, pw, url.QueryEscape(pw))
	}
	return out
}

// IsURL reports whether s is a URL this store opens: postgres:// or
// postgresql://, as libpq accepts.
func IsURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}
