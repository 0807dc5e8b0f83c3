package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// ftsTokenize is memories_fts's tokenizer (migration 0001): query words
// are turned into index terms with it.
const ftsTokenize = "porter unicode61 remove_diacritics 2"

// storeTokenized says whether the store's memories_fts is tokenized
// with ftsTokenize, as the query words are (indexTerms), from its CREATE
// statement, read once a DB. A store tokenized otherwise would have
// other terms than the words' (a word missed silently, wrong scores, no
// error), so bm25() scores its windows.
func (s *MemoryService) storeTokenized(ctx context.Context) bool {
	l := &s.db.lengths
	l.mu.Lock()
	known := l.store
	l.mu.Unlock()
	if known != 0 {
		return known > 0
	}
	var create string
	if err := s.db.readQueryRow(ctx, `SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'memories_fts'`).Scan(&create); err != nil {
		return false // asked again at the next search
	}
	t, ok := ftsTokenizeOption(create)
	ok = ok && t == ftsTokenize
	l.mu.Lock()
	l.store = -1
	if ok {
		l.store = 1
	}
	l.mu.Unlock()
	return ok
}

// ftsTokenizeOption returns the tokenize option of an FTS5 table's
// CREATE statement (ok is false when it cannot tell): the option's
// quoted value, or FTS5's default tokenizer when there is none.
func ftsTokenizeOption(create string) (string, bool) {
	open := strings.IndexByte(create, '(')
	if open < 0 || !strings.HasPrefix(strings.ToLower(strings.Join(strings.Fields(create[:open]), " ")), "create virtual table") ||
		!strings.HasSuffix(strings.ToLower(strings.TrimSpace(create[:open])), "fts5") {
		return "", false
	}
	// The arguments, split at the commas outside quotes.
	var args []string
	var quote byte
	from := open + 1
	closed := false
	for i := from; i < len(create) && !closed; i++ {
		c := create[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0 // a doubled quote reopens at the next byte
			}
		case c == '-' && strings.HasPrefix(create[i:], "--") || c == '/' && strings.HasPrefix(create[i:], "/*"):
			// A comment could hide or fake an option: cannot tell.
			return "", false
		case c == '\'' || c == '"' || c == '`' || c == '[':
			quote = c
			if c == '[' {
				quote = ']'
			}
		case c == ',' || c == ')':
			args = append(args, strings.TrimSpace(create[from:i]))
			from = i + 1
			closed = c == ')'
		}
	}
	if !closed {
		return "", false
	}
	value, found := "unicode61", false // FTS5's default
	for _, a := range args {
		key, v, isOption := strings.Cut(a, "=")
		if !isOption || !strings.EqualFold(strings.TrimSpace(key), "tokenize") {
			continue
		}
		v = strings.TrimSpace(v)
		if found || len(v) < 2 || v[0] != '\'' && v[0] != '"' || v[len(v)-1] != v[0] {
			return "", false
		}
		q := string(v[0])
		value, found = strings.ReplaceAll(v[1:len(v)-1], q+q, q), true
	}
	return value, true
}

// tokenizer turns query words into memories_fts's index terms, through
// an FTS5 table of its own with the same tokenizer in memory (FTS5
// tokenizes a quoted query string as it tokenized the documents), and
// remembers them: a word's terms never change. Its statements are
// prepared once, and a query's new words are tokenized together: the
// words are new in about half the benchmark's questions, and each one
// cost three statements prepared and run.
var tokenizer struct {
	mu            sync.Mutex
	db            *sql.DB
	del, ins, sel *sql.Stmt
	terms         map[string][]string
}

// maxTokenized bounds the words remembered; past it they start over.
const maxTokenized = 10000

// indexTerms returns the index terms of each query word.
func indexTerms(ctx context.Context, words []string) ([][]string, error) {
	tk := &tokenizer
	tk.mu.Lock()
	defer tk.mu.Unlock()
	var unknown []string
	for _, w := range words {
		if _, ok := tk.terms[w]; !ok && !slices.Contains(unknown, w) {
			unknown = append(unknown, w)
		}
	}
	if len(unknown) > 0 {
		if tk.db == nil {
			if err := openTokenizer(ctx); err != nil {
				return nil, fmt.Errorf("search: tokenizer: %w", err)
			}
		}
		got, err := tokenize(ctx, unknown)
		if err != nil {
			return nil, fmt.Errorf("search: tokenizer: %w", err)
		}
		if tk.terms == nil || len(tk.terms)+len(got) > maxTokenized {
			// Starting over: keep this query's known words, whose terms
			// the answer below is built from.
			kept := map[string][]string{}
			for _, w := range words {
				if t, ok := tk.terms[w]; ok {
					kept[w] = t
				}
			}
			tk.terms = kept
		}
		for i, w := range unknown {
			tk.terms[w] = got[i]
		}
	}
	terms := make([][]string, len(words))
	for i, w := range words {
		terms[i] = tk.terms[w]
	}
	return terms, nil
}

// openTokenizer opens the tokenizer's database and prepares its
// statements (tokenizer.mu held).
func openTokenizer(ctx context.Context) error {
	tk := &tokenizer
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		return err
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	for _, q := range []string{
		`CREATE VIRTUAL TABLE words USING fts5(w, tokenize = '` + ftsTokenize + `')`,
		`CREATE VIRTUAL TABLE word_terms USING fts5vocab(words, instance)`,
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			db.Close()
			return err
		}
	}
	var stmts [3]*sql.Stmt
	for i, q := range []string{
		`DELETE FROM words`,
		`INSERT INTO words(rowid, w) VALUES (?, ?)`,
		`SELECT doc, term FROM word_terms ORDER BY doc, offset`,
	} {
		if stmts[i], err = db.PrepareContext(ctx, q); err != nil {
			db.Close()
			return err
		}
	}
	tk.db, tk.del, tk.ins, tk.sel = db, stmts[0], stmts[1], stmts[2]
	return nil
}

// tokenize stores each word as a row of the tokenizer's table and reads
// each one's terms in order (tokenizer.mu held).
func tokenize(ctx context.Context, words []string) ([][]string, error) {
	tk := &tokenizer
	if _, err := tk.del.ExecContext(ctx); err != nil {
		return nil, err
	}
	terms := make([][]string, len(words))
	for i, w := range words {
		if _, err := tk.ins.ExecContext(ctx, i+1, w); err != nil {
			return nil, err
		}
		terms[i] = []string{}
	}
	rows, err := tk.sel.QueryContext(ctx)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var doc int
		var t string
		if err := rows.Scan(&doc, &t); err != nil {
			return nil, err
		}
		if doc < 1 || doc > len(words) {
			return nil, fmt.Errorf("a term of row %d of %d", doc, len(words))
		}
		terms[doc-1] = append(terms[doc-1], t)
	}
	return terms, rows.Err()
}
