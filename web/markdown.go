package web

import (
	"bytes"
	"html/template"
	"net/url"
	"strings"
	"sync"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// md renders memory content. Raw HTML is never passed through (goldmark
// omits it unless told otherwise) and linkGuard rewrites every link and
// image whose address is not plainly safe, so content cannot run script
// even before the Content-Security-Policy would stop it. It is built at the
// first page that renders content, not at package initialisation, which
// every recall process (each hook) would pay for.
var md = sync.OnceValue(func() goldmark.Markdown {
	return goldmark.New(
		goldmark.WithExtensions(extension.GFM),
		goldmark.WithParserOptions(parser.WithASTTransformers(util.Prioritized(linkGuard{}, 100))),
	)
})

// renderMarkdown returns content as HTML safe to put in a page.
func renderMarkdown(content string) template.HTML {
	var buf bytes.Buffer
	if err := md().Convert([]byte(content), &buf); err != nil {
		// Rendering cannot fail on a bytes.Buffer; show the text escaped if it ever does.
		return template.HTML("<pre>" + template.HTMLEscapeString(content) + "</pre>")
	}
	return template.HTML(buf.String()) // safe: goldmark without WithUnsafe omits raw HTML, linkGuard drops unsafe addresses
}

// linkGuard drops the destination of links and images whose scheme is not
// http, https or mailto (javascript:, data:, vbscript:, in any case or
// with hidden characters), keeping the text.
type linkGuard struct{}

func (linkGuard) Transform(doc *ast.Document, src text.Reader, _ parser.Context) {
	var drop []*ast.AutoLink // replaced after the walk, which must not see the tree change
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Link:
			if !safeURL(n.Destination) {
				n.Destination = []byte("#unsafe-link-removed")
			}
		case *ast.Image:
			if !safeURL(n.Destination) {
				n.Destination = []byte("#unsafe-image-removed")
			}
		case *ast.AutoLink:
			if !safeURL(n.URL(src.Source())) {
				drop = append(drop, n)
			}
		}
		return ast.WalkContinue, nil
	})
	for _, n := range drop {
		n.Parent().ReplaceChild(n.Parent(), n, ast.NewString(n.Label(src.Source())))
	}
}

// safeURL allows relative addresses and the http, https and mailto
// schemes. Browsers ignore tabs and newlines inside a scheme and compare
// it case-insensitively, so the check does too.
func safeURL(dest []byte) bool {
	s := strings.Map(func(r rune) rune {
		if r <= ' ' || r == 0x7f {
			return -1
		}
		return r
	}, string(dest))
	u, err := url.Parse(s)
	if err != nil {
		return false
	}
	switch strings.ToLower(u.Scheme) {
	case "", "http", "https", "mailto":
		return true
	}
	return false
}
