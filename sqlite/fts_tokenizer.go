package sqlite

import (
	"context"
	"database/sql"
	"fmt"
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
// remembers them: a word's terms never change.
var tokenizer struct {
	mu    sync.Mutex
	db    *sql.DB
	terms map[string][]string
}

// maxTokenized bounds the words remembered; past it they start over.
const maxTokenized = 10000

// indexTerms returns the index terms of a query word.
func indexTerms(ctx context.Context, word string) ([]string, error) {
	tk := &tokenizer
	tk.mu.Lock()
	defer tk.mu.Unlock()
	if t, ok := tk.terms[word]; ok {
		return t, nil
	}
	if tk.db == nil {
		db, err := sql.Open("sqlite", ":memory:")
		if err != nil {
			return nil, err
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
				return nil, fmt.Errorf("search: tokenizer: %w", err)
			}
		}
		tk.db = db
	}
	t, err := tokenize(ctx, tk.db, word)
	if err != nil {
		return nil, fmt.Errorf("search: tokenizer: %w", err)
	}
	if tk.terms == nil || len(tk.terms) >= maxTokenized {
		tk.terms = map[string][]string{}
	}
	tk.terms[word] = t
	return t, nil
}

// tokenize stores word as the tokenizer table's one row and reads its
// terms in order.
func tokenize(ctx context.Context, db *sql.DB, word string) ([]string, error) {
	if _, err := db.ExecContext(ctx, `DELETE FROM words`); err != nil {
		return nil, err
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO words(rowid, w) VALUES (1, ?)`, word); err != nil {
		return nil, err
	}
	rows, err := db.QueryContext(ctx, `SELECT term FROM word_terms ORDER BY offset`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	terms := []string{}
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			return nil, err
		}
		terms = append(terms, t)
	}
	return terms, rows.Err()
}
