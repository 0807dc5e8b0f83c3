package redact

import (
	"maps"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
)

func TestRedactor_Redact(t *testing.T) {
	r := MustNew(Config{})
	for _, tc := range []struct {
		name, in, want string
		counts         map[string]int
	}{
		{"Plain", "ran go test ./... and it passed", "ran go test ./... and it passed", nil},
		{"PrivateSpan", "keep <private>my diary</private>this", "keep this", map[string]int{KindPrivate: 1}},
		{"UnclosedPrivateSpan", "keep <PRIVATE>rest is private", "keep ", map[string]int{KindPrivate: 1}},
		{"Assignment", "password=hunter2xyz next", "password=[REDACTED:password] next", map[string]int{KindPassword: 1}},
		{"ProviderKeyWinsOverAssignment", "OPENAI_API_KEY=sk-abcdefghij0123456789ABCD", "OPENAI_API_KEY=[REDACTED:openai_key]", map[string]int{KindOpenAI: 1}},
		{"ConnectionStringKeepsUser", "postgres://app:s3cretPass@db:5432/x", "postgres://app:[REDACTED:connection_string]@db:5432/x", map[string]int{KindConnString: 1}},
		{"Placeholder", "password=${DB_PASSWORD}", "password=${DB_PASSWORD}", nil},
		{"TwoKinds", "AKIAABCDEFGHIJKLMNOP and ghp_" + strings.Repeat("a1", 18), "[REDACTED:aws_access_key] and [REDACTED:github_token]",
			map[string]int{KindAWSKeyID: 1, KindGitHub: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, counts := r.Redact(tc.in)
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			if !maps.Equal(tc.counts, counts) {
				t.Errorf("counts = %v, want %v", counts, tc.counts)
			}
		})
	}
}

func TestNew_Config(t *testing.T) {
	t.Run("ExtraPattern", func(t *testing.T) {
		r := MustNew(Config{Patterns: []string{`EMP-(\d{6})`, `ACME-[0-9]{8}`}})
		got, counts := r.Redact("employee_id=EMP-123456 ticket ACME-12345678")
		if want := "employee_id=EMP-[REDACTED:custom] ticket [REDACTED:custom]"; got != want {
			t.Errorf("got %q, want %q", got, want)
		}
		if counts[KindCustom] != 2 {
			t.Errorf("counts = %v", counts)
		}
	})
	t.Run("NamedKind", func(t *testing.T) {
		r := MustNew(Config{Patterns: []string{`internal_token=itk_[a-z0-9]{10}`}})
		if got, _ := r.Redact("use itk_abcdef1234"); got != "use [REDACTED:internal_token]" {
			t.Errorf("got %q", got)
		}
	})
	t.Run("AllowList", func(t *testing.T) {
		r := MustNew(Config{Allow: []string{"AKIAIOSFODNN7EXAMPLE", `sk_test_[A-Za-z0-9]+`}})
		in := "docs key AKIAIOSFODNN7EXAMPLE and sk_test_abcdefghijklmnop1234"
		if got, counts := r.Redact(in); got != in || counts != nil {
			t.Errorf("got %q %v, want unchanged", got, counts)
		}
	})
	t.Run("ErrInvalidPattern", func(t *testing.T) {
		if _, err := New(Config{Patterns: []string{"(unclosed"}}); recall.ErrorCode(err) != recall.EINVALID {
			t.Errorf("err = %v, want EINVALID", err)
		}
	})
}

// FuzzRedactor checks that redaction never panics, never leaves a found
// secret behind, and is idempotent: redacting the output changes nothing.
func FuzzRedactor(f *testing.F) {
	for _, s := range corpus(2) {
		f.Add(s.text)
	}
	f.Add("<private>a</private><private>")
	f.Add("token: Bearer abcDEF1234567890xyz")
	r := MustNew(Config{})
	f.Fuzz(func(t *testing.T, in string) {
		out, counts := r.Redact(in)
		n := 0
		for _, c := range counts {
			n += c
		}
		if got := strings.Count(out, "[REDACTED:") - strings.Count(in, "[REDACTED:"); counts[KindPrivate] == 0 && got < n {
			t.Fatalf("%d markers for %d redactions: %q", got, n, out)
		}
		again, more := r.Redact(out)
		if again != out || len(more) > 0 {
			t.Fatalf("not idempotent: %q -> %q (%v)", out, again, more)
		}
	})
}

// BenchmarkRedactor measures redaction of a 64 KiB log-like text with a
// few secrets in it.
func BenchmarkRedactor(b *testing.B) {
	var sb strings.Builder
	for i := 0; sb.Len() < 64<<10; i++ {
		sb.WriteString("2026-01-02T10:00:00Z INFO request handled path=/api/v1/items status=200 duration=12ms\n")
		if i%100 == 0 {
			sb.WriteString("export GITHUB_TOKEN=ghp_" + strings.Repeat("a1B2", 9) + "\n")
		}
	}
	text := sb.String()
	r := MustNew(Config{})
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r.Redact(text)
	}
}
