package engine_test

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
)

// TestEngine_SearchSlotsAnswerEverything opens one store twice, once
// with a gate of one search at a time, and has concurrent searches,
// context packs (a search inside) and reads by id go through the gated
// engine: every call answers, and as the ungated engine does.
func TestEngine_SearchSlotsAnswerEverything(t *testing.T) {
	ctx := context.Background()
	plain := openEngine(t)
	if engine.SearchSlotsOf(plain) != 0 {
		t.Fatal("an engine opened without SearchSlots gates its searches")
	}
	gated := engine.New(testParts())
	gated.StoreFlag, gated.Log, gated.SearchSlots = plain.StoreFlag, &bytes.Buffer{}, 1
	if err := gated.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer gated.Close()
	if n := engine.SearchSlotsOf(gated); n != 1 {
		t.Fatalf("SearchSlots 1 opened a gate of %d", n)
	}
	var ids []string
	for i := range 6 {
		res, err := plain.Put(ctx, &recall.Memory{Key: fmt.Sprintf("deploy-%d", i), Content: fmt.Sprintf("Deploy step %d goes through staging.", i)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, res.Memory.ID)
	}
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	q := recall.SearchQuery{Text: "deploy staging", Limit: 5, Now: now}
	creq := recall.ContextRequest{Query: "deploy staging", Budget: 2000, Now: now}
	wantHits, err := plain.Search(ctx, q)
	if err != nil || len(wantHits) == 0 {
		t.Fatalf("ungated search: %v, %v", wantHits, err)
	}
	wantPack, err := plain.Context(ctx, creq)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			hits, err := gated.Search(ctx, q)
			if err != nil || !reflect.DeepEqual(hitIDs(hits), hitIDs(wantHits)) {
				t.Errorf("gated search %d: %v, %v; want %v", i, hitIDs(hits), err, hitIDs(wantHits))
			}
		})
		wg.Go(func() {
			pack, err := gated.Context(ctx, creq)
			if err != nil || pack.Text != wantPack.Text {
				t.Errorf("gated context pack %d: %v\n%s\nwant\n%s", i, err, pack.Text, wantPack.Text)
			}
		})
		wg.Go(func() {
			if m, err := gated.Get(ctx, ids[i%len(ids)], ""); err != nil || m.ID != ids[i%len(ids)] {
				t.Errorf("get %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	if n := engine.SearchSlotsOf(gated); n != 1 {
		t.Fatalf("after the calls the gate has %d slots, want 1", n)
	}
}

func hitIDs(hits []*recall.SearchHit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.Memory.ID)
	}
	return out
}
