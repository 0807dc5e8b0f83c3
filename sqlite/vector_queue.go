package sqlite

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/recall-mem/recall"
)

// embedOrQueue gives m's current version its vectors in tx when the
// embedder is inline (see vector_inline.go), else queues it. seq is m's
// memories.seq; fresh says m was inserted by tx.
func embedOrQueue(ctx context.Context, tx *Tx, m *recall.Memory, seq int64, fresh bool) error {
	if done, err := embedInTx(ctx, tx, m, seq, fresh); done || err != nil {
		return err
	}
	return enqueueEmbedding(ctx, tx, m, seq)
}

// enqueueEmbedding records, inside the write's transaction, that m's
// current version needs vectors; seq is its row's (0: look it up). A
// crash after the commit loses nothing: the queue row is there for the
// next drain.
func enqueueEmbedding(ctx context.Context, tx *Tx, m *recall.Memory, seq int64) error {
	var err error
	if seq == 0 {
		err = tx.QueryRowContext(ctx, sqlMemorySeq, m.ID).Scan(&seq)
	}
	if err == nil {
		_, err = tx.exec(ctx, sqlEnqueue, seq, m.Version, ms(tx.now))
	}
	if err != nil {
		return fmt.Errorf("enqueue embedding: %w", err)
	}
	if v := tx.db.vectors; v != nil {
		v.queued.Add(1)
	}
	return nil
}

// sqlEnqueue queues a memory by its seq (migration 0022), or requeues it
// as untried.
const sqlEnqueue = `INSERT INTO embed_queue (memory_seq, version, queued_at) VALUES (?, ?, ?)
	ON CONFLICT (memory_seq) DO UPDATE SET version = excluded.version, queued_at = excluded.queued_at, attempts = 0, last_error = ''`

// queuedItem is a memory waiting for vectors.
type queuedItem struct {
	id             string
	version        int
	title, content string
	oldHash        string // hash of the text behind its current vectors of this model
}

// queuedQuery loads the next queued memories (at most the last argument),
// least tried and oldest first, with the hash behind their vectors of
// the model and dimension of the first two arguments. CROSS JOIN makes
// SQLite walk the queue and look its memories up: left to choose, it
// scanned every memory and probed the queue for each, a cost that grew
// with the store on every search even with nothing queued. The LIMIT is
// boundLimit so that the kept statement is not prepared again at each run.
const queuedQuery = `SELECT m.id, m.version, m.title, m.content,
		COALESCE((SELECT v.hash FROM memory_vectors v WHERE v.memory_seq = m.seq AND v.chunk = 0 AND v.model = ? AND v.dim = ?), '')
		FROM embed_queue q CROSS JOIN memories m ON m.seq = q.memory_seq
		ORDER BY q.attempts, q.queued_at LIMIT ` + boundLimit

// loadQueued returns the next queued memories, at most drainBatch.
func (s *VectorService) loadQueued(ctx context.Context, e recall.Embedder) ([]queuedItem, error) {
	rows, err := s.db.readQuery(ctx, queuedQuery, e.Model(), e.Dim(), drainBatch)
	if err != nil {
		return nil, fmt.Errorf("load queue: %w", err)
	}
	defer rows.Close()
	var out []queuedItem
	for rows.Next() {
		var it queuedItem
		if err := rows.Scan(&it.id, &it.version, &it.title, &it.content, &it.oldHash); err != nil {
			return nil, err
		}
		out = append(out, it)
	}
	return out, rows.Err()
}

// passage is one chunk of a queued memory with the text to embed.
type passage struct {
	item  int
	chunk recall.Chunk
	text  string
}

// passages splits a memory into the texts to embed: the title and the
// headings above a passage are repeated in it, since they say what the
// passage is about.
func (s *VectorService) passages(it queuedItem) []recall.Chunk {
	if s.Chunker == nil {
		return []recall.Chunk{{Start: 0, End: len(it.content)}}
	}
	return s.Chunker.Chunk(it.content)
}

func passageText(title string, c recall.Chunk, content string) string {
	var b strings.Builder
	if title != "" {
		b.WriteString(title)
		b.WriteString("\n")
	}
	if c.Heading != "" && c.Heading != title {
		b.WriteString(c.Heading)
		b.WriteString("\n")
	}
	b.WriteString(content[c.Start:c.End])
	return b.String()
}

func textHash(title, content string) string {
	h := sha256.New()
	h.Write([]byte(title))
	h.Write([]byte{0})
	h.Write([]byte(content))
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// embedTexts embeds texts in batches of batchSize and checks that the
// embedder returned one vector of its dimension per text.
func (s *VectorService) embedTexts(ctx context.Context, e recall.Embedder, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for b := 0; b < len(texts); b += s.batchSize() {
		batch := texts[b:min(b+s.batchSize(), len(texts))]
		vs, err := e.Embed(ctx, batch)
		if err == nil && len(vs) != len(batch) {
			err = fmt.Errorf("embedder returned %d vectors for %d texts", len(vs), len(batch))
		}
		if err != nil {
			return nil, err
		}
		for _, v := range vs {
			if len(v) != e.Dim() {
				return nil, recall.Errorf(recall.EUNAVAILABLE, "The embedder returned %d dimensions, not %d: check [retrieval] model and run `recall reindex`.", len(v), e.Dim())
			}
		}
		out = append(out, vs...)
	}
	return out, nil
}

// embedItems embeds the items (outside any transaction, since a remote
// embedder may take seconds) and writes their vectors in one transaction.
// An item whose text is unchanged keeps its vectors. On an embedder error
// the items are marked as failed and stay queued.
func (s *VectorService) embedItems(ctx context.Context, e recall.Embedder, items []queuedItem) (int, error) {
	if len(items) == 0 {
		return 0, nil
	}
	var ps []passage
	hashes := make([]string, len(items))
	for i, it := range items {
		hashes[i] = textHash(it.title, it.content)
		if hashes[i] == it.oldHash {
			continue
		}
		for _, c := range s.passages(it) {
			ps = append(ps, passage{item: i, chunk: c, text: passageText(it.title, c, it.content)})
		}
	}
	texts := make([]string, len(ps))
	for i, p := range ps {
		texts[i] = p.text
	}
	vecs, err := s.embedTexts(ctx, e, texts)
	if err != nil {
		s.markFailed(items, err)
		return 0, err
	}
	err = s.db.update(ctx, func(tx *Tx) error {
		return writeVectors(ctx, tx, e, items, hashes, ps, vecs)
	})
	if err != nil {
		return 0, err
	}
	return len(items), nil
}

// Statements writeVectors runs per memory.
const (
	sqlMemoryVersion = `SELECT seq, version FROM memories WHERE id = ?`
	sqlKeepVectors   = `UPDATE memory_vectors SET version = ? WHERE memory_seq = ?`
	sqlDropVectors   = `DELETE FROM memory_vectors WHERE memory_seq = ?`
	sqlInsertVector  = `INSERT INTO memory_vectors (memory_seq, memory_id, chunk, version, hash, model, dim, span_start, span_end, vec)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
	sqlDequeue = `DELETE FROM embed_queue WHERE memory_seq = ? AND version = ?`
)

func writeVectors(ctx context.Context, tx *Tx, e recall.Embedder, items []queuedItem, hashes []string, ps []passage, vecs [][]float32) error {
	st := map[string]*sql.Stmt{}
	for _, q := range []string{sqlMemoryVersion, sqlKeepVectors, sqlDropVectors, sqlInsertVector, sqlDequeue} {
		s, err := tx.prepare(ctx, q)
		if err != nil {
			return fmt.Errorf("write vectors: %w", err)
		}
		st[q] = s
	}
	byItem := make([][]int, len(items))
	for i, p := range ps {
		byItem[p.item] = append(byItem[p.item], i)
	}
	buf := make([]byte, 0, e.Dim()*2)
	for i, it := range items {
		// The memory may have changed since it was read: a newer version
		// is queued again, so this one is dropped.
		var seq int64
		var cur int
		if err := st[sqlMemoryVersion].QueryRowContext(ctx, it.id).Scan(&seq, &cur); err != nil || cur != it.version {
			continue
		}
		if hashes[i] == it.oldHash {
			if _, err := st[sqlKeepVectors].ExecContext(ctx, it.version, seq); err != nil {
				return fmt.Errorf("write vectors: %w", err)
			}
		} else {
			if _, err := st[sqlDropVectors].ExecContext(ctx, seq); err != nil {
				return fmt.Errorf("write vectors: %w", err)
			}
			for _, pi := range byItem[i] {
				p := ps[pi]
				buf = encodeVector(buf[:0], vecs[pi])
				if _, err := st[sqlInsertVector].ExecContext(ctx, seq, it.id, p.chunk.Index, it.version, hashes[i], e.Model(), e.Dim(), p.chunk.Start, p.chunk.End, buf); err != nil {
					return fmt.Errorf("write vectors: %w", err)
				}
			}
		}
		if _, err := st[sqlDequeue].ExecContext(ctx, seq, it.version); err != nil {
			return fmt.Errorf("dequeue: %w", err)
		}
	}
	if err := clearFailureTx(ctx, tx); err != nil { // the provider answered
		return err
	}
	return setStoredModelOnce(ctx, tx, e)
}

// setStoredModelOnce names the model of a store's first vectors; after
// that only Reindex changes it.
func setStoredModelOnce(ctx context.Context, tx *Tx, e recall.Embedder) error {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM store_meta WHERE key = ?`, metaVectorModel).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return nil
	}
	return setStoredModel(ctx, tx, e)
}

// markFailed records an embedding failure on queued items and as the
// provider's last failure, so that doctor can show it; they stay queued.
func (s *VectorService) markFailed(items []queuedItem, cause error) {
	if isCutShort(cause) {
		return // cut short by the caller, not a failure of the provider
	}
	msg := failureText(cause)
	// The caller's context may be what failed; the bookkeeping still runs.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := s.db.update(ctx, func(tx *Tx) error {
		for _, it := range items {
			if _, err := tx.ExecContext(ctx, `UPDATE embed_queue SET attempts = attempts + 1, last_error = ? WHERE memory_seq = (`+sqlMemorySeq+`)`, msg, it.id); err != nil {
				return err
			}
		}
		return noteFailureTx(ctx, tx, msg)
	})
	s.report(err)
}
