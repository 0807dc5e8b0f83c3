package maintain

import (
	"bufio"
	"reflect"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
)

func dialog(input string, out *strings.Builder) *Dialog {
	return &Dialog{In: bufio.NewReader(strings.NewReader(input)), Out: out, Echo: true}
}

func TestDialogCandidates(t *testing.T) {
	p := &recall.MaintainPlan{
		PressureCandidates:   []recall.MaintainCandidate{{ID: "a1", Action: ActDemote}, {ID: "a2", Action: ActDemote}},
		SupersededCandidates: []recall.MaintainCandidate{{ID: "a3", Action: ActArchive, Status: recall.StatusSuperseded}},
	}
	var out strings.Builder
	if got, want := dialog("a\n", &out).Candidates(p), Recommended(p); !reflect.DeepEqual(got, want) {
		t.Errorf("apply all: %v, want %v", got, want)
	}
	out.Reset()
	// Decide individually: pin the first, skip the second, refuse a
	// letter a superseded entry does not offer, then archive it.
	got := dialog("d\np\n\np\na\n", &out).Candidates(p)
	want := []Choice{{ID: "a1", Action: ActPin}, {ID: "a3", Action: ActArchive}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("individually: %v, want %v", got, want)
	}
	if !strings.Contains(out.String(), "Answer one of a/k, or enter to skip.") {
		t.Errorf("no retry prompt in:\n%s", out.String())
	}
	if got := dialog("", &out).Candidates(p); got != nil {
		t.Errorf("end of input: %v, want nothing", got)
	}
}

func TestDialogFindings(t *testing.T) {
	p := &recall.MaintainPlan{Findings: []recall.MaintainFinding{
		{Kind: recall.FindingStale, IDs: []string{"s1"}},
		{Kind: recall.FindingOpenLoop, IDs: []string{"o1"}},
	}}
	var out strings.Builder
	texts := map[string]string{}
	got := dialog("u\nNew words\nk\n", &out).Findings(p, texts)
	want := []Choice{{ID: "s1", Action: ActUpdate}, {ID: "o1", Action: ActKeep}}
	if !reflect.DeepEqual(got, want) || texts["s1"] != "New words" {
		t.Errorf("findings: %v %v, want %v and the new text", got, texts, want)
	}
	if !strings.Contains(out.String(), "stale ^s1 [v/u/a, enter to skip] u\n") {
		t.Errorf("answers not echoed:\n%s", out.String())
	}
}
