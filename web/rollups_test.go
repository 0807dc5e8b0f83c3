package web

import (
	"context"
	"regexp"
	"strconv"
	"testing"

	"github.com/recall-mem/recall"
)

// activeMemories reads the count of active raw memories from the rollups
// page's table of tiers.
var activeMemories = regexp.MustCompile(`<td>raw</td><td>memories</td><td>active</td><td>(\d+)</td>`)

// TestPages_RollupsLive: the rollups page reads the tier statistics on
// every view, so a memory stored outside the UI (by an agent, the CLI)
// counts at once, not a minute later.
func TestPages_RollupsLive(t *testing.T) {
	f := newFixture(t, Options{Loopback: true})
	count := func() int {
		t.Helper()
		m := activeMemories.FindStringSubmatch(f.get("/rollups").Body.String())
		if m == nil {
			t.Fatal("the rollups page shows no active memories")
		}
		n, _ := strconv.Atoi(m[1])
		return n
	}
	before := count()
	if _, err := f.eng.Put(context.Background(), &recall.Memory{Title: "Editor", Content: "Helix, since the spring"}); err != nil {
		t.Fatal(err)
	}
	if after := count(); after != before+1 {
		t.Fatalf("%d active memories after storing one more, want %d", after, before+1)
	}
}
