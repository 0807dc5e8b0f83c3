package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
)

// ftsTokenize is memories_fts's tokenizer (migration 0001): query words
// are turned into index terms with it.
const ftsTokenize = "porter unicode61 remove_diacritics 2"

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
