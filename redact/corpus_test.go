package redact

import (
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
)

// sample is one labelled corpus entry: text holding secret (of kind), or a
// look-alike that must come through unchanged (kind "").
type sample struct {
	kind, secret, text string
}

const (
	alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	upnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	hex   = "0123456789abcdef"
	b64   = alnum + "+/"
	urlc  = alnum + "-_"
)

// corpus builds the labelled corpus deterministically: n variations of
// every secret kind in the contexts they appear in (shell, code, JSON,
// logs, prose), and look-alikes that a redactor must leave alone.
func corpus(n int) []sample {
	rng := rand.New(rand.NewPCG(5, 7))
	rs := func(alphabet string, k int) string {
		b := make([]byte, k)
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(b)
	}
	ctx := func(i int, s string) string {
		frames := []string{
			"export VAR=%s", "curl -H 'X-Key: %s' https://api.example.com", `{"key": "%s", "ok": true}`,
			"client = New(\"%s\")", "2026-01-02 INFO using credential %s for upload", "the key is %s, keep it safe",
		}
		return fmt.Sprintf(frames[i%len(frames)], s)
	}
	var out []sample
	add := func(kind, secret, text string) { out = append(out, sample{kind, secret, text}) }
	for i := 0; i < n; i++ {
		s := "sk-proj-" + rs(urlc, 48)
		if i%2 == 1 {
			s = "sk-" + rs(alnum, 48)
		}
		add(KindOpenAI, s, ctx(i, s))
		s = "sk-ant-api03-" + rs(urlc, 93) + "AA"
		add(KindAnthropic, s, ctx(i, s))
		s = "AKIA" + rs(upnum, 16)
		add(KindAWSKeyID, s, ctx(i, s))
		s = rs(b64, 40)
		add(KindPassword, s, fmt.Sprintf("aws_secret_access_key = %s", s))
		s = []string{"ghp_", "gho_", "ghs_"}[i%3] + rs(alnum, 36)
		if i%4 == 3 {
			s = "github_pat_" + rs(alnum, 22) + "_" + rs(alnum, 59)
		}
		add(KindGitHub, s, ctx(i, s))
		s = "xoxb-" + rs("0123456789", 12) + "-" + rs("0123456789", 12) + "-" + rs(alnum, 24)
		add(KindSlack, s, ctx(i, s))
		s = []string{"sk_live_", "rk_live_", "sk_test_"}[i%3] + rs(alnum, 24)
		add(KindStripe, s, ctx(i, s))
		s = "AIza" + rs(urlc, 35)
		add(KindGoogle, s, ctx(i, s))
		s = "-----BEGIN RSA PRIVATE KEY-----\n" + rs(b64, 64) + "\n" + rs(b64, 64) + "\n-----END RSA PRIVATE KEY-----"
		if i%2 == 1 {
			s = strings.ReplaceAll(s, "RSA ", "OPENSSH ")
		}
		add(KindPrivateKey, s, "cat id_rsa\n"+s+"\n")
		hdr := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT"}`))
		body := base64.RawURLEncoding.EncodeToString([]byte(fmt.Sprintf(`{"sub":"%d","name":"u%d","iat":%d}`, rng.IntN(1e6), i, 1700000000+i)))
		s = hdr + "." + body + "." + rs(urlc, 43)
		add(KindJWT, s, ctx(i, s))
		s = rs(urlc, 32)
		add(KindBearer, s, "curl -H 'Authorization: Bearer "+s+"' https://api.example.com/v1/me")
		s = rs(alnum, 14)
		add(KindConnString, s, []string{"DATABASE_URL=postgres://app:%s@db.internal:5432/prod", "mongodb+srv://admin:%s@cluster0.example.net/test", "redis://default:%s@cache:6379/0"}[i%3])
		out[len(out)-1].text = fmt.Sprintf(out[len(out)-1].text, s)
		s = rs(alnum, 12)
		add(KindPassword, s, []string{"password=%s", `"password": "%s"`, "DB_PASSWORD: %s", "secret := \"%s\"", "--token=%s", "STRIPE_API_KEY=%s", "auth_key => '%s'", "Credentials: %s"}[i%8])
		out[len(out)-1].text = fmt.Sprintf(out[len(out)-1].text, s)
		s = rs(alnum, 32)
		add(KindEntropy, s, []string{"SESSION_SIGNING=%s", `signing_salt: "%s"`, "HMAC_SEED = '%s'"}[i%3])
		out[len(out)-1].text = fmt.Sprintf(out[len(out)-1].text, s)

		// Look-alikes.
		add("", "", "git checkout "+rs(hex, 40))
		add("", "", "commit="+rs(hex, 40)+" parent "+rs(hex, 7))
		add("", "", fmt.Sprintf("request_id: %s-%s-4%s-a%s-%s", rs(hex, 8), rs(hex, 4), rs(hex, 3), rs(hex, 3), rs(hex, 12)))
		add("", "", "sha256="+rs(hex, 64))
		add("", "", `<img src="data:image/png;base64,iVBORw0KGgo`+rs(b64, 400)+`==">`)
		add("", "", `{"thumbnail": "/9j/4AAQSkZJRgABAQ`+rs(b64, 300)+`"}`)
		add("", "", "path = /usr/local/lib/python3.12/site-packages/Requests"+rs("0123456789", 2)+"/adapters.py")
		add("", "", "token := lexer.Next()")
		add("", "", "max_tokens=4096 temperature=0.2")
		add("", "", "password: required, min 12 characters")
		add("", "", "We rotated the API key and revoked the old token yesterday.")
		add("", "", "image: ghcr.io/acme/api:v1.24."+rs("0123456789", 1))
		add("", "", "go get github.com/acme/sk-learn-helpers@v0.3."+rs("0123456789", 1))
		add("", "", "Authorization header uses Bearer authentication")
		add("", "", "const apiKey = process.env.OPENAI_API_KEY")
		add("", "", "postgres://localhost:5432/app?sslmode=disable")
		add("", "", `"integrity": "sha512-`+rs(b64, 86)+`=="`)
		add("", "", "body: "+base64.StdEncoding.EncodeToString([]byte(fmt.Sprintf("Hello from test %d, all good here", i))))
		add("", "", "chunk = main."+rs(hex, 8)+".js")
		add("", "", "Use token bucket rate limiting with refill 100/s")
	}
	return out
}

// TestRedactor_Corpus measures recall per kind and the false-positive
// rate on look-alikes over the labelled corpus, prints them, and guards
// against regressions with floors well below the measured figures.
func TestRedactor_Corpus(t *testing.T) {
	r := MustNew(Config{})
	type tally struct{ total, caught int }
	perKind := map[string]*tally{}
	var look tally
	for _, s := range corpus(40) {
		got, counts := r.Redact(s.text)
		if s.kind == "" {
			look.total++
			if len(counts) > 0 {
				look.caught++
				t.Logf("false positive: %q -> %q", s.text, got)
			}
			continue
		}
		k := perKind[s.kind]
		if k == nil {
			k = &tally{}
			perKind[s.kind] = k
		}
		k.total++
		if !strings.Contains(got, s.secret) && strings.Contains(got, "[REDACTED:") {
			k.caught++
		} else {
			t.Logf("missed %s: %q -> %q", s.kind, s.text, got)
		}
	}
	kinds := make([]string, 0, len(perKind))
	for k := range perKind {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	var all tally
	fmt.Printf("%-18s %6s %6s\n", "kind", "n", "recall")
	for _, k := range kinds {
		v := perKind[k]
		all.total += v.total
		all.caught += v.caught
		fmt.Printf("%-18s %6d %6.3f\n", k, v.total, float64(v.caught)/float64(v.total))
		if float64(v.caught)/float64(v.total) < 0.9 {
			t.Errorf("recall for %s is %d/%d, below 0.9", k, v.caught, v.total)
		}
	}
	fmt.Printf("%-18s %6d %6.3f\n", "all secrets", all.total, float64(all.caught)/float64(all.total))
	fmt.Printf("%-18s %6d %6.3f (false-positive rate)\n", "look-alikes", look.total, float64(look.caught)/float64(look.total))
	if float64(look.caught)/float64(look.total) > 0.05 {
		t.Errorf("false-positive rate %d/%d is over 0.05", look.caught, look.total)
	}
}
