package rank

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/recall-mem/recall"
)

// Searcher is recall's hybrid searcher: full-text (BM25) and vector
// candidates fused, adjusted for recency, tier, pins, confidence and
// status, then diversified so near-duplicates do not crowd the top. It
// reaches the store only through root interfaces, so it runs the same over
// SQLite, a remote store or test fakes.
type Searcher struct {
	// Text returns BM25-ranked candidates (the store's full-text search).
	Text recall.TextCandidates
	// Vectors returns passages near the query; nil means none configured.
	Vectors recall.VectorSearcher
	// Memories loads vector candidates under the query's filter.
	Memories recall.MemoryService
	// Neighbors, when set, finds the memories recorded beside the best
	// candidates (the turns around a matching turn).
	Neighbors recall.NeighborFinder
	// AsOf returns a searcher over memory as it was at t, and a function
	// that releases it; nil means --as-of is not supported here.
	AsOf func(ctx context.Context, t time.Time) (recall.Searcher, func(), error)
	// Time reads time expressions in queries; nil: none are read.
	Time recall.TimeParser
	// Now is the clock for relative time words and recency when a query
	// has no Now; with neither, both are left out.
	Now func() time.Time

	Options Options
}

var _ recall.Searcher = (*Searcher)(nil)

// Options tune ranking. The zero value means DefaultOptions.
type Options struct {
	Candidates   int     // per source
	Fusion       string  // "rrf" (reciprocal rank) or "score" (weighted sum of max-normalised scores)
	RRFK         float64 // reciprocal-rank-fusion constant
	TextWeight   float64 // weight of the BM25 list in fusion
	VectorWeight float64 // weight of the vector list in fusion
	Weights      Weights
	// MMRLambda trades relevance (1) against novelty (0); 1 turns MMR off.
	MMRLambda float64
	// Episode is how much a memory borrows from the best other candidate
	// that occurred within EpisodeWindow of it (a conversation session, a
	// meeting): evidence for one topic clusters in time.
	Episode       float64
	EpisodeWindow time.Duration
	// Neighbor is how much a memory borrows from a top candidate recorded
	// next to it (within NeighborRadius rows and EpisodeWindow), divided by
	// the distance; NeighborTop candidates are expanded.
	Neighbor       float64
	NeighborRadius int
	NeighborTop    int
	// NeighborBefore stretches the distance to memories recorded before a
	// candidate: what follows a match (a reply, the next step) tends to
	// continue it more than what precedes it.
	NeighborBefore float64
	// VectorFloor is the vector similarity from which a vector match alone
	// is evidence enough for a hit (see VectorFloor); memories below it
	// and without a full-text match may only lend or borrow context.
	VectorFloor float64
	// Entity multiplies the score of memories whose author, project, tags
	// or metadata name someone or something the query names by 1 + Entity.
	Entity float64
	// ContextShare scales the score with which a context memory (one that
	// only borrows from a hit) competes for a place in the list: shown
	// under its hit, it still takes a place that a hit with evidence of
	// its own could have had. 1 lets it compete at its full score.
	ContextShare float64
	// MinShare drops hits scoring under this fraction of the best hit.
	MinShare float64
	// TimeBoost multiplies the score of memories inside a time window the
	// query names by 1 + TimeBoost; words such as "in May 2023" do not
	// exclude other memories (the flags --since and --until do).
	TimeBoost float64
	// TimeStrict lists only the hits inside the window a query names
	// whenever there are any ("what did we decide last week"); without
	// it the window only boosts (TimeBoost).
	TimeStrict bool
	// Feedback is the fusion weight of a second full-text query expanded
	// with FeedbackTerms words from the FeedbackDocs best matches
	// (pseudo-relevance feedback); 0 turns it off.
	Feedback      float64
	FeedbackDocs  int
	FeedbackTerms int
	// StripTime removes the time expressions from the text query.
	StripTime bool
	// Recent replaces Weights.Recency and Weights.HalfLife when the query
	// asks for recent memories ("recently", "latest").
	Recent         float64
	RecentHalfLife time.Duration
}

// DefaultOptions are the measured defaults (docs/retrieval.md).
func DefaultOptions() Options {
	return Options{
		Candidates:     100,
		Fusion:         "score",
		RRFK:           DefaultRRFK,
		TextWeight:     1,
		VectorWeight:   0.4,
		Weights:        DefaultWeights(),
		MMRLambda:      0.9,
		Episode:        0.3,
		EpisodeWindow:  time.Hour,
		Neighbor:       0.4,
		NeighborRadius: 2,
		NeighborTop:    20,
		NeighborBefore: 2,
		VectorFloor:    DefaultVectorFloor,
		Entity:         0.5,
		ContextShare:   0.7,
		MinShare:       0.1,
		TimeBoost:      1.5,
		TimeStrict:     true,
		StripTime:      true,
		Recent:         0.5,
		RecentHalfLife: 30 * 24 * time.Hour,
		FeedbackDocs:   3,
		FeedbackTerms:  5,
	}
}

func (s *Searcher) options() Options {
	if s.Options.Candidates == 0 {
		return DefaultOptions()
	}
	return s.Options
}

// candidate is one memory under consideration.
type candidate struct {
	m                    *recall.Memory
	bm25, vector, prf    float64
	bm25Rank, vectorRank int
	snippet              string
	base, fused, score   float64
	neighbor, episode    float64            // context shares included in fused
	adjust               map[string]float64 // for Explain only: nil without it
	// lean marks a memory loaded with only the fields the ranker reads
	// (candidateLoader): a hit shown is loaded whole first (complete).
	lean bool
	// via is the candidate this one borrowed its neighbour share from, and
	// offset its place relative to it (rows; negative: recorded before).
	via    string
	offset int
}

// note records an adjustment of c for Explain (c.adjust is nil without
// it).
func (c *candidate) note(name string, v float64) {
	if c.adjust != nil {
		c.adjust[name] = v
	}
}

// Search ranks memories for q. Returns EINVALID for an unknown mode or a
// bad filter, and EUNAVAILABLE in vector mode when no vector index can
// answer; hybrid mode then falls back to full text and says so in Explain.
func (s *Searcher) Search(ctx context.Context, q recall.SearchQuery) ([]*recall.SearchHit, error) {
	mode := q.Mode
	if mode == "" {
		mode = recall.ModeHybrid
	}
	if mode != recall.ModeHybrid && mode != recall.ModeBM25 && mode != recall.ModeVector {
		return nil, recall.Errorf(recall.EINVALID, "Unknown search mode %q: use hybrid, bm25 or vector.", mode)
	}
	if q.AsOf != nil {
		return s.searchAsOf(ctx, q)
	}
	o := s.options()
	limit := q.Limit
	if limit <= 0 {
		limit = 10
	}
	now := q.Now
	if now.IsZero() && s.Now != nil {
		now = s.Now()
	}
	text := strings.TrimSpace(q.Text)
	if text == "" {
		return nil, nil
	}
	intent := recall.TimeIntent{Text: text}
	if s.Time != nil && !now.IsZero() { // without a clock, relative words mean nothing
		intent = s.parseTime(ctx, text, now)
	}
	if o.StripTime {
		text = intent.Text
	}
	if intent.HasWindow() && TimeOnly(intent) && s.Memories != nil {
		return s.listWindow(ctx, q.Filter, intent, now, o.Weights, limit, q.Explain, "time: "+describe(intent)+"; the window's memories, newest first")
	}
	// The vector search runs beside the full-text one: on two cores the
	// query costs the slower of the two, not their sum.
	var vec <-chan vectorResult
	// The full-text candidates' ids go to the vector search when they are
	// ready: it need not load those memories again.
	textKnown := make(chan []string, 1)
	if mode != recall.ModeBM25 {
		vec = s.nearest(ctx, contentWords(text), q.Filter, max(o.Candidates, limit), textKnown)
	}
	// An early return waits for the vector search, so that nothing still
	// reads the store after Search returns.
	settle := func() {
		if vec != nil {
			<-vec
		}
	}
	cands := map[string]*candidate{}
	var textIDs, vecIDs []string
	if mode != recall.ModeVector {
		var err error
		if textIDs, err = s.textCandidates(ctx, text, q.Filter, intent, max(o.Candidates, limit), cands); err != nil {
			settle()
			return nil, err
		}
		textKnown <- textIDs
	}
	if o.Feedback > 0 && len(textIDs) > 0 {
		if err := s.feedback(ctx, o, text, q.Filter, textIDs, cands); err != nil {
			settle()
			return nil, err
		}
	}
	var notes []string
	if len(intent.Found) > 0 {
		notes = append(notes, "time: "+describe(intent))
	}
	if vec != nil {
		r := <-vec
		switch err := r.err; {
		case err == nil:
			vecIDs = vectorCandidates(r, cands)
		case recall.ErrorCode(err) == recall.EUNAVAILABLE && mode == recall.ModeHybrid:
			notes = append(notes, "vector search skipped, ranked by full text only: "+recall.ErrorMessage(err))
		default:
			return nil, err
		}
	}
	fused := s.fuse(o, cands, textIDs, vecIDs)
	for id, f := range fused {
		cands[id].base, cands[id].fused = f, f
	}
	if o.Neighbor > 0 && s.Neighbors != nil {
		if err := s.neighborBoost(ctx, o, q.Filter, cands); err != nil {
			return nil, err
		}
	}
	if o.Episode > 0 {
		episodeBoost(cands, o.Episode, o.EpisodeWindow)
	}
	w := o.Weights
	if intent.Recent {
		w.Recency, w.HalfLife = o.Recent, o.RecentHalfLife
	}
	names := queryNames(q.Text)
	var hits, context []*candidate
	isLookup, words := lookup(cands, mode, queryWords(text)), matchWords(text)
	if isLookup {
		notes = append(notes, "keyword lookup: the best match holds every word of the query, so only memories holding one of them are hits")
	}
	for _, c := range cands {
		if q.Explain { // only Explain reads the factors
			c.adjust = map[string]float64{}
		}
		c.score = adjust(c.fused, c.m, now, w, c.adjust)
		// The context shares are added, not multiplied: Explain reports
		// them under names starting with "+".
		if c.neighbor > 0 {
			c.note("+neighbor", c.neighbor)
		}
		if c.episode > 0 {
			c.note("+episode", c.episode)
		}
		if o.TimeBoost > 0 && intent.HasWindow() && inWindow(c.m.OccurredAt, intent) {
			c.score *= 1 + o.TimeBoost
			c.note("time_window", 1+o.TimeBoost)
		}
		if o.Entity > 0 && namesMatch(c.m, names) {
			c.score *= 1 + o.Entity
			c.note("entity", 1+o.Entity)
		}
		switch {
		case hasEvidence(c, o.VectorFloor) && (!isLookup || lexical(c, mode, words)):
			hits = append(hits, c)
		case follows(c):
			context = append(context, c)
		}
	}
	if o.TimeStrict && intent.HasWindow() {
		hits = keepWindow(hits, intent)
	}
	hits = diversify(order(hits), o.MMRLambda, limit)
	hits = cut(hits, o.MinShare)
	terms := queryTerms(text)
	hit := func(c *candidate) *recall.SearchHit {
		h := &recall.SearchHit{Memory: c.m, Score: c.score, Snippet: bestPassage(c.m.Content, terms, c.snippet)}
		if q.Explain {
			h.Explain = &recall.HitExplain{BM25: c.bm25, BM25Rank: c.bm25Rank, Vector: c.vector, VectorRank: c.vectorRank,
				Fused: c.fused, Adjustments: c.adjust, Note: strings.Join(notes, "; ")}
		}
		return h
	}
	laid := attach(hits, order(asContext(context, o.ContextShare)), limit)
	gone, err := s.complete(ctx, q.Filter, laid)
	if err != nil {
		return nil, err
	}
	out := make([]*recall.SearchHit, 0, len(laid))
	for _, s := range laid {
		if gone[s.hit] {
			continue
		}
		h := hit(s.hit)
		for _, c := range s.context {
			if !gone[c] {
				h.Context = append(h.Context, hit(c))
			}
		}
		out = append(out, h)
	}
	return out, nil
}

// vectorResult is the answer of a vector search started by nearest: the
// memories of the nearest passages, best first (one per memory, its best
// passage), loaded and filtered.
type vectorResult struct {
	ids    []string
	best   map[string]recall.VectorHit
	loaded map[string]*recall.Memory
	lean   bool // loaded holds only the fields the ranker reads
	err    error
}

// nearest starts the vector search for text, and loads the memories it
// finds that pass f, beside the full-text search; its one result arrives
// on the channel. If the full-text candidates' ids have arrived on
// textKnown by the time it loads, those memories are not loaded: the
// ranker has them already (they passed f), and uses its own copy of
// any memory both searches find.
func (s *Searcher) nearest(ctx context.Context, text string, f recall.MemoryFilter, k int, textKnown <-chan []string) <-chan vectorResult {
	out := make(chan vectorResult, 1)
	if s.Vectors == nil {
		out <- vectorResult{err: recall.Errorf(recall.EUNAVAILABLE, "No embedder is configured: set [retrieval] embedder in config.toml, then run `recall reindex`.")}
		return out
	}
	go func() {
		r, err := s.loadNearest(ctx, text, f, k, textKnown)
		r.err = err
		out <- r
	}()
	return out
}

func (s *Searcher) loadNearest(ctx context.Context, text string, f recall.MemoryFilter, k int, textKnown <-chan []string) (vectorResult, error) {
	hits, err := s.Vectors.SearchVectors(ctx, text, k)
	if err != nil {
		return vectorResult{}, err
	}
	var known map[string]bool
	select {
	case ids := <-textKnown:
		known = make(map[string]bool, len(ids))
		for _, id := range ids {
			known[id] = true
		}
	default: // still searching: load them all rather than wait
	}
	r := vectorResult{best: map[string]recall.VectorHit{}, loaded: map[string]*recall.Memory{}}
	for _, h := range hits {
		if h.Score <= 0 {
			continue // orthogonal or opposed: shares nothing with the query
		}
		if _, ok := r.best[h.MemoryID]; !ok {
			r.ids = append(r.ids, h.MemoryID)
			r.best[h.MemoryID] = h
		}
	}
	load := make([]string, 0, len(r.ids))
	rows := make([]int64, 0, len(r.ids))
	for _, id := range r.ids {
		if !known[id] {
			load, rows = append(load, id), append(rows, r.best[id].Row)
		}
	}
	if len(load) == 0 {
		return r, nil
	}
	f.IDs, f.Offset, f.Limit = load, 0, len(load)
	var ms []*recall.Memory
	if l, ok := s.Memories.(candidateLoader); ok {
		ms, err = l.FindCandidates(ctx, f, rows)
		r.lean = true
	} else {
		ms, _, err = s.Memories.FindMemories(ctx, f)
	}
	if err != nil {
		return vectorResult{}, fmt.Errorf("load vector candidates: %w", err)
	}
	for _, m := range ms {
		r.loaded[m.ID] = m
	}
	return r, nil
}

// vectorCandidates adds the memories of a vector search to cands and
// returns their ids, best first. Memories the filter excludes are dropped.
func vectorCandidates(r vectorResult, cands map[string]*candidate) []string {
	ids, best, loaded := r.ids, r.best, r.loaded
	var out []string
	for _, id := range ids {
		c := cands[id]
		if c == nil {
			m := loaded[id]
			if m == nil {
				continue // filtered out
			}
			c = &candidate{m: m, lean: r.lean}
			cands[id] = c
		}
		out = append(out, id)
		c.vector, c.vectorRank = best[id].Score, len(out)
	}
	return out
}

// fuse combines the text and vector lists into one score per candidate.
// The score fusion is NormalizeMinMax of the vector list and Normalize of
// the BM25 and feedback lists, weighted, computed from the three lists'
// scales without building the six maps those return (the same
// operations, so the same bits: TestFuse_SameAsNormalizedLists).
func (s *Searcher) fuse(o Options, cands map[string]*candidate, textIDs, vecIDs []string) map[string]float64 {
	if o.Fusion != "score" {
		return RRF(o.RRFK, List{IDs: textIDs, Weight: o.TextWeight}, List{IDs: vecIDs, Weight: o.VectorWeight})
	}
	// The vector list is spread over [0, 1] by min-max: a sentence
	// encoder's cosines sit in a narrow band, so dividing by the best
	// would give every candidate nearly the same share (LoCoMo dev R@10
	// 0.756 against 0.747). BM25 scores are spread already.
	bmTop, prfTop := 0.0, 0.0
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, c := range cands {
		bmTop, prfTop = math.Max(bmTop, c.bm25), math.Max(prfTop, c.prf)
		if c.vectorRank > 0 {
			lo, hi = math.Min(lo, c.vector), math.Max(hi, c.vector)
		}
	}
	out := make(map[string]float64, len(cands))
	for id, c := range cands {
		var bm, vec, prf float64
		if bmTop > 0 {
			bm = c.bm25 / bmTop
		}
		if c.vectorRank > 0 {
			if hi > lo {
				vec = (c.vector - lo) / (hi - lo)
			} else if hi > 0 {
				vec = 1
			}
		}
		if prfTop > 0 {
			prf = c.prf / prfTop
		}
		out[id] = o.TextWeight*bm + o.VectorWeight*vec + o.Feedback*prf
	}
	return out
}

// searchAsOf answers q from memory as it was at q.AsOf.
func (s *Searcher) searchAsOf(ctx context.Context, q recall.SearchQuery) ([]*recall.SearchHit, error) {
	if s.AsOf == nil {
		return nil, recall.Errorf(recall.ENOTIMPL, "This store cannot search its history; search without --as-of.")
	}
	past, release, err := s.AsOf(ctx, *q.AsOf)
	if err != nil {
		return nil, err
	}
	defer release()
	q.AsOf = nil
	return past.Search(ctx, q)
}
