package sqlite

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
)

// storedColumns are the columns of memories but seq, with their types.
var storedColumns = func() string {
	cols := strings.Fields(`id key collection type title content tags category context related project priority created_by
		confidence tier pinned status anchors metadata created_at updated_at reviewed_at occurred_at snoozed_until version`)
	for i, c := range cols {
		cols[i] = "typeof(" + c + ") || ':' || quote(" + c + ")"
	}
	return strings.Join(cols, " || '|' || ")
}()

// TestInsertPlainMemory_SameRow: a memory written by insertMemory, which
// takes insertPlainMemorySQL for a plain memory, has the row, value for
// value and type for type, that insertMemorySQL writes for it; a memory
// with any of the fields the plain statement fixes set is not plain.
func TestInsertPlainMemory_SameRow(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2024, 1, 2, 3, 4, 5, 6e6, time.UTC)
	plain := func() *recall.Memory {
		return &recall.Memory{Title: "Deploy", Content: "Deploys go through staging", Tags: []string{"ops", "é"}, OccurredAt: at}
	}
	variants := map[string]func(m *recall.Memory){
		"plain": func(*recall.Memory) {}, "no tags": func(m *recall.Memory) { m.Tags = nil },
		"metadata {}": func(m *recall.Memory) { m.Metadata = json.RawMessage(`{}`) }, "metadata null": func(m *recall.Memory) { m.Metadata = json.RawMessage(`null`) },
		"other tier": func(m *recall.Memory) { m.Tier = recall.TierWorking }, "other status": func(m *recall.Memory) { m.Status = recall.StatusArchived },
		"collection": func(m *recall.Memory) { m.Collection = "notes" }, "no title": func(m *recall.Memory) { m.Title = "" },
	}
	notPlain := map[string]func(m *recall.Memory){
		"key": func(m *recall.Memory) { m.Key = "k" }, "type": func(m *recall.Memory) { m.Type = "decision" },
		"category": func(m *recall.Memory) { m.Category = "c" }, "context": func(m *recall.Memory) { m.Context = "x" },
		"related": func(m *recall.Memory) { m.Related = []string{"tr0000000001"} }, "project": func(m *recall.Memory) { m.Project = "p" },
		"priority": func(m *recall.Memory) { m.Priority = "high" }, "created_by": func(m *recall.Memory) { m.CreatedBy = "agent" },
		"confidence": func(m *recall.Memory) { m.Confidence = 0.5 }, "pinned": func(m *recall.Memory) { m.Pinned = true },
		"anchors":  func(m *recall.Memory) { m.Anchors = []recall.Anchor{{Path: "a.go", Hash: strings.Repeat("ab", 32)}} },
		"metadata": func(m *recall.Memory) { m.Metadata = json.RawMessage(`{"a":1}`) },
		"reviewed": func(m *recall.Memory) { m.ReviewedAt = &at }, "snoozed": func(m *recall.Memory) { m.SnoozedUntil = &at },
	}
	viaInsert, viaFull := openDB(t), openDB(t)
	check := func(name string, change func(*recall.Memory), wantPlain bool) {
		m := plain()
		change(m)
		if err := viaInsert.clean(m); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		err := viaInsert.update(ctx, func(tx *Tx) error {
			fillDefaults(m, tx)
			if m.Confidence == 0 {
				m.Confidence = 1
			}
			if got := plainMemory(m); got != wantPlain {
				t.Errorf("%s: plain %v, want %v", name, got, wantPlain)
			}
			return insertMemory(ctx, tx, m, "put")
		})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		err = viaFull.update(ctx, func(tx *Tx) error {
			_, err := tx.exec(ctx, insertMemorySQL, appendMemoryArgs([]any{m.ID}, m)...)
			return err
		})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var got, want string
		if err := viaInsert.read.QueryRow(`SELECT `+storedColumns+` FROM memories WHERE id = ?`, m.ID).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if err := viaFull.read.QueryRow(`SELECT `+storedColumns+` FROM memories WHERE id = ?`, m.ID).Scan(&want); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("%s: row\n%s\nwant\n%s", name, got, want)
		}
	}
	for name, change := range variants {
		check(name, change, true)
	}
	for name, change := range notPlain {
		check(name, change, false)
	}
}
