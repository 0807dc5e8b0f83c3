package recalltest

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
)

// TestObservationService runs the ObservationService contract. open must
// return a service over a fresh, empty store with the default content
// limit (1 MiB) each time it is called.
func TestObservationService(t *testing.T, open func(t *testing.T) recall.ObservationService) {
	ctx := context.Background()
	at := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	t.Run("Record", func(t *testing.T) {
		s := open(t)
		obs := []*recall.Observation{
			{Type: recall.ObsCommand, Content: "go test ./...", Session: "s1", At: at},
			{Type: recall.ObsFileEdit, Content: "edited main.go", File: "main.go", Session: "s1"},
		}
		if err := s.RecordObservations(ctx, obs); err != nil {
			t.Fatal(err)
		}
		if obs[0].ID <= 0 || obs[1].ID <= obs[0].ID {
			t.Fatalf("ids %d, %d: want increasing ids", obs[0].ID, obs[1].ID)
		}
		if obs[1].At.IsZero() || obs[1].Status != recall.StatusActive {
			t.Fatalf("defaults not filled: %+v", obs[1])
		}
		got, total, err := s.FindObservations(ctx, recall.ObservationFilter{ID: &obs[1].ID})
		if err != nil || total != 1 || got[0].File != "main.go" || got[0].Content != "edited main.go" {
			t.Fatalf("got %+v total %d err %v", got, total, err)
		}
	})
	t.Run("ErrInvalidWritesNothing", func(t *testing.T) {
		s := open(t)
		err := s.RecordObservations(ctx, []*recall.Observation{{Type: "note", Content: "fine"}, {Type: "two words", Content: "bad"}})
		wantCode(t, err, recall.EINVALID)
		if _, total, _ := s.FindObservations(ctx, recall.ObservationFilter{}); total != 0 {
			t.Fatalf("a rejected batch wrote %d observations", total)
		}
		wantCode(t, s.RecordObservations(ctx, []*recall.Observation{{Content: "no type"}}), recall.EINVALID)
	})
	t.Run("ErrTooLarge", func(t *testing.T) {
		s := open(t)
		err := s.RecordObservations(ctx, []*recall.Observation{{Type: "note", Content: strings.Repeat("x", 1<<20+1)}})
		wantCode(t, err, recall.ETOOLARGE)
	})
	t.Run("Find", func(t *testing.T) {
		s := open(t)
		var obs []*recall.Observation
		for i, c := range []struct{ typ, session, content string }{
			{recall.ObsUserPrompt, "s1", "make the tests pass"},
			{recall.ObsCommandError, "s1", "panic: assignment to entry in nil map"},
			{recall.ObsCommand, "s2", "go vet ./..."},
			{recall.ObsUserPrompt, "s2", "why was there a nil map"},
		} {
			obs = append(obs, &recall.Observation{Type: c.typ, Session: c.session, Content: c.content, Key: "k", At: at.Add(time.Duration(i) * time.Minute)})
		}
		if err := s.RecordObservations(ctx, obs); err != nil {
			t.Fatal(err)
		}
		since, until := at.Add(time.Minute), at.Add(3*time.Minute)
		cases := []struct {
			name   string
			filter recall.ObservationFilter
			want   []int // indexes into obs, in result order
			total  int
		}{
			{"All", recall.ObservationFilter{}, []int{0, 1, 2, 3}, 4},
			{"Desc", recall.ObservationFilter{Desc: true}, []int{3, 2, 1, 0}, 4},
			{"Type", recall.ObservationFilter{Type: ptr(recall.ObsUserPrompt)}, []int{0, 3}, 2},
			{"Session", recall.ObservationFilter{Session: ptr("s2")}, []int{2, 3}, 2},
			{"Key", recall.ObservationFilter{Key: ptr("k")}, []int{0, 1, 2, 3}, 4},
			{"Window", recall.ObservationFilter{Since: &since, Until: &until}, []int{1, 2}, 2},
			{"Search", recall.ObservationFilter{Search: "nil map"}, []int{1, 3}, 2},
			{"SearchOperatorsAsText", recall.ObservationFilter{Search: `"nil AND map)`}, []int{1, 3}, 2},
			{"LimitOffset", recall.ObservationFilter{Limit: 2, Offset: 1}, []int{1, 2}, 4},
			{"NoMatch", recall.ObservationFilter{Session: ptr("s9")}, nil, 0},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				got, total, err := s.FindObservations(ctx, c.filter)
				if err != nil {
					t.Fatal(err)
				}
				var idx []int
				for _, o := range got {
					idx = append(idx, slices.IndexFunc(obs, func(x *recall.Observation) bool { return x.ID == o.ID }))
				}
				if !slices.Equal(idx, c.want) || total != c.total {
					t.Fatalf("got %v (total %d), want %v (total %d)", idx, total, c.want, c.total)
				}
			})
		}
		got, _, _ := s.FindObservations(ctx, recall.ObservationFilter{ID: &obs[1].ID})
		if len(got) != 1 || !got[0].At.Equal(obs[1].At) || got[0].Session != "s1" || got[0].Type != recall.ObsCommandError {
			t.Fatalf("round trip %+v", got)
		}
	})
}
