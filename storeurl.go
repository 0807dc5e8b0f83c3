package recall

import "net/url"

// RedactURL returns a store URL with its password replaced, for messages,
// logs and `recall where`. A password given as a query parameter is
// replaced too; text that does not parse as a URL is hidden whole.
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable store URL hidden)"
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	q := u.Query()
	if q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.String()
}
