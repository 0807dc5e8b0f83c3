package web

import (
	"context"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
)

// activeTags can run script or change where the page's links and forms go.
var activeTags = map[string]bool{"script": true, "iframe": true, "object": true, "embed": true, "svg": true, "math": true,
	"style": true, "base": true, "form": true, "meta": true, "link": true, "frame": true}

// urlAttrs hold addresses a browser follows or loads.
var urlAttrs = map[string]bool{"href": true, "src": true, "action": true, "formaction": true, "xlink:href": true, "srcset": true}

// scriptable scans HTML as a browser tokenizes tags and attributes and
// returns a description of the first thing that could run script: an
// active element, an event handler, or an address whose scheme (after
// entity decoding and the whitespace browsers drop) is not http, https or
// mailto. It returns "" for HTML that cannot run script.
func scriptable(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] != '<' {
			continue
		}
		j := i + 1
		if j < len(s) && s[j] == '/' {
			j++
		}
		k := j
		for k < len(s) && (isAlnum(s[k]) || s[k] == '-') {
			k++
		}
		if k == j {
			continue // "<" not starting a tag is text to the browser
		}
		name := strings.ToLower(s[j:k])
		if activeTags[name] {
			return "element <" + name + ">"
		}
		// Attributes up to the tag's end, honouring quotes.
		for k < len(s) && s[k] != '>' {
			for k < len(s) && (s[k] == ' ' || s[k] == '\t' || s[k] == '\n' || s[k] == '/') {
				k++
			}
			a := k
			for k < len(s) && !strings.ContainsRune(" \t\n=>/", rune(s[k])) {
				k++
			}
			attr := strings.ToLower(s[a:k])
			val := ""
			if k < len(s) && s[k] == '=' {
				k++
				if k < len(s) && (s[k] == '"' || s[k] == '\'') {
					q := s[k]
					e := strings.IndexByte(s[k+1:], q)
					if e < 0 {
						return "unterminated attribute " + attr
					}
					val, k = s[k+1:k+1+e], k+2+e
				} else {
					v := k
					for k < len(s) && !strings.ContainsRune(" \t\n>", rune(s[k])) {
						k++
					}
					val = s[v:k]
				}
			}
			if strings.HasPrefix(attr, "on") {
				return "event handler " + attr
			}
			if urlAttrs[attr] && !safeURL([]byte(html.UnescapeString(val))) {
				return attr + "=" + val
			}
			if a == k && k < len(s) && s[k] != '>' {
				k++ // a stray character; step over it
			}
		}
		i = k
	}
	return ""
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// formTag matches the UI's own forms, which post to this server only.
var formTag = regexp.MustCompile(`<form method="(get|post)" action="/[^"]*"[^>]*>|</form>`)

var hostile = map[string]string{
	"ScriptTag":       "<script>alert(1)</script>",
	"ScriptInline":    "before <script>alert(1)</script> after",
	"ImgOnerror":      `<img src=x onerror="alert(1)">`,
	"SVGOnload":       `<svg onload=alert(1)>`,
	"Iframe":          `<iframe src="javascript:alert(1)"></iframe>`,
	"JavascriptLink":  "[click](javascript:alert(1))",
	"UpperCaseScheme": "[click](JaVaScRiPt:alert(1))",
	"EntityScheme":    "[click](&#106;avascript:alert(1))",
	"HexEntityScheme": "[click](&#x6A;avascript&#x3A;alert(1))",
	"TabInScheme":     "[click](java\tscript:alert(1))",
	"EncodedColon":    "[click](javascript%3Aalert(1))",
	"RefLink":         "[click][x]\n\n[x]: javascript:alert(1)",
	"AutoLink":        "<javascript:alert(1)>",
	"VBScript":        "[click](vbscript:msgbox(1))",
	"DataHTML":        "[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
	"ImageJS":         "![x](javascript:alert(1))",
	"ImageOnerrorAlt": `![x" onerror="alert(1)](x.png)`,
	"TitleBreakout":   `[a](http://ok.example "x\" onmouseover=\"alert(1)")`,
	"LinkTextHTML":    "[<img src=x onerror=alert(1)>](http://ok.example)",
	"HTMLBlock":       "<div onclick=\"alert(1)\">hi</div>",
	"HTMLComment":     "<!-- --><script>alert(1)</script>",
	"StyleTag":        "<style>body{background:url(javascript:alert(1))}</style>",
	"TableCell":       "| a |\n|---|\n| <script>alert(1)</script> |",
	"CodeSpan":        "`<script>alert(1)</script>`",
	"NestedBrackets":  "[[x](javascript:alert(1))](http://ok.example)",
	"NewlineInScheme": "[click](<java\nscript:alert(1)>)",
	"BackslashEscape": "[click](javascript\\:alert(1))",
	"FormAction":      `<form action="javascript:alert(1)"><button>x</button></form>`,
	"MetaRefresh":     `<meta http-equiv="refresh" content="0;url=javascript:alert(1)">`,
	"BaseHref":        `<base href="javascript:alert(1)//">`,
}

func TestRenderMarkdown_NoScript(t *testing.T) {
	for name, in := range hostile {
		t.Run(name, func(t *testing.T) {
			out := string(renderMarkdown(in))
			if m := scriptable(out); m != "" {
				t.Fatalf("rendered %q as\n%s\nwhich can run script (%s)", in, out, m)
			}
		})
	}
}

func TestRenderMarkdown_KeepsSafeMarkup(t *testing.T) {
	out := string(renderMarkdown("# Title\n\nSome **bold** and a [link](https://example.com/a?b=c) and <https://example.org>.\n\n- one\n- two\n\n```\ncode <b>\n```"))
	for _, want := range []string{"<h1>Title</h1>", "<strong>bold</strong>", `<a href="https://example.com/a?b=c">link</a>`, `<a href="https://example.org">`, "<li>one</li>", "code &lt;b&gt;"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestSafeURL(t *testing.T) {
	for in, want := range map[string]bool{
		"https://x.example": true, "http://x": true, "mailto:a@b.c": true, "/memories/x": true, "#top": true, "rel/path": true,
		"javascript:alert(1)": false, " JAVASCRIPT:x": false, "java\nscript:x": false, "data:text/html,x": false, "vbscript:x": false, "file:///etc/passwd": false,
	} {
		if got := safeURL([]byte(in)); got != want {
			t.Errorf("safeURL(%q) = %v, want %v", in, got, want)
		}
	}
}

// TestPages_EscapeHostileContent puts every hostile sample into a memory's
// title, content, tags and context and checks each page that shows it.
func TestPages_EscapeHostileContent(t *testing.T) {
	f := newFixture(t, Options{Loopback: true})
	var ids []string
	i := 0
	for name, in := range hostile {
		i++
		res, err := f.eng.Put(context.Background(), &recall.Memory{Key: "hostile-" + strings.ToLower(name), Title: in, Content: in + "\n\nhostile sample", Tags: []string{in}, Context: in, Type: "note"})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, res.Memory.ID)
	}
	pages := []string{"/memories", "/memories?q=hostile+sample", "/memories?q=alert"}
	for _, id := range ids {
		pages = append(pages, "/memories/"+id, "/memories/"+id+"/edit")
	}
	for _, p := range pages {
		w := f.get(p)
		if w.Code != 200 {
			t.Fatalf("%s: %d %s", p, w.Code, w.Body)
		}
		body := w.Body.String()
		// The layout's own head and the page's forms are the UI's; what
		// follows <main> apart from them comes from memories.
		body = body[strings.Index(body, "<main"):]
		body = formTag.ReplaceAllString(body, "")
		if m := scriptable(body); m != "" {
			t.Fatalf("%s can run script (%s):\n%s", p, m, body)
		}
	}
}

func TestShowRedactions(t *testing.T) {
	got := string(showRedactions("key=[REDACTED:api_key] <b>"))
	want := `key=<mark class="redacted">[REDACTED:api_key]</mark> &lt;b&gt;`
	if got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

// TestScriptable checks the checker: a test that cannot see script proves
// nothing.
func TestScriptable(t *testing.T) {
	for in, bad := range map[string]bool{
		`<script>x</script>`: true, `<SCRIPT >`: true, `<img src=x onerror=alert(1)>`: true, `<img src="x"onerror="y">`: true,
		`<a href="&#106;avascript:x">`: true, `<a href=" javascript:x">`: true, `<a href='data:text/html,x'>`: true, `<svg>`: true,
		`<p>&lt;script&gt;</p>`: false, `<img alt="x&quot; onerror=&quot;y" src="a.png">`: false, `<a href="https://x" title="on=1">`: false,
		`a < b and c > d`: false,
	} {
		if got := scriptable(in) != ""; got != bad {
			t.Errorf("scriptable(%q) = %q, want bad=%v", in, scriptable(in), bad)
		}
	}
}
