package maintain

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/recall-mem/recall"
)

// Dialog is the interactive maintenance of seed 000: a question on Out,
// an answer read from In, one line each.
type Dialog struct {
	In  *bufio.Reader
	Out io.Writer
	// Echo repeats each answer on Out, so that a transcript of a dialogue
	// fed from a file or pipe reads as one.
	Echo bool
}

// ask prints a prompt and reads one trimmed line; ok is false at the end
// of input.
func (d *Dialog) ask(prompt string) (string, bool) {
	fmt.Fprintf(d.Out, "%s", prompt)
	line, err := d.In.ReadString('\n')
	if err != nil && (err != io.EOF || line == "") {
		fmt.Fprintf(d.Out, "\n")
		return "", false
	}
	line = strings.TrimSpace(line)
	if d.Echo {
		fmt.Fprintf(d.Out, "%s\n", line) // echo, so that a transcript reads as a dialogue
	}
	return line, true
}

// Candidates asks seed 000's question, then per candidate if told to, and
// returns the choices made.
func (d *Dialog) Candidates(p *recall.MaintainPlan) []Choice {
	if CandidateCount(p) == 0 {
		return nil
	}
	answer, ok := d.ask("Apply all / decide individually? [a/d, enter to skip] ")
	if !ok {
		return nil
	}
	switch strings.ToLower(answer) {
	case "a", "all", "apply all", "y", "yes":
		return Recommended(p)
	case "d", "i", "individually", "decide individually":
	default:
		return nil
	}
	var out []Choice
	all := append(append([]recall.MaintainCandidate(nil), p.PressureCandidates...), p.SupersededCandidates...)
	for i, c := range all {
		letters := "k/p/s/d/a/m"
		if c.Action == ActArchive && c.Status == recall.StatusSuperseded {
			letters = "a/k"
		}
		for {
			ans, ok := d.ask("  " + strconv.Itoa(i+1) + ". ^" + c.ID + " [" + letters + ", enter to skip] ")
			if !ok {
				return out
			}
			if ans == "" {
				break
			}
			act, err := ParseAction(ans)
			if err == nil && strings.Contains(letters, ans[:1]) && act != ActUpdate {
				out = append(out, Choice{ID: c.ID, Action: act})
				break
			}
			fmt.Fprintf(d.Out, "  Answer one of %s, or enter to skip.\n", letters)
		}
	}
	return out
}

// Findings asks about stale entries, changed anchors and open loops. The
// new text of an entry to update goes into texts, by id.
func (d *Dialog) Findings(p *recall.MaintainPlan, texts map[string]string) []Choice {
	var out []Choice
	asked := false
	defer func() {
		if asked {
			fmt.Fprintf(d.Out, "\n") // set the summary apart from the questions
		}
	}()
	for _, f := range p.Findings {
		var letters string
		switch f.Kind {
		case recall.FindingStale, recall.FindingAnchor:
			letters = "v/u/a"
		case recall.FindingOpenLoop:
			letters = "k/s/a"
		default:
			continue
		}
		id := f.IDs[0]
		asked = true
		for {
			ans, ok := d.ask(f.Kind + " ^" + id + " [" + letters + ", enter to skip] ")
			if !ok {
				return out
			}
			if ans == "" {
				break
			}
			act, err := ParseAction(ans)
			if err != nil || !strings.Contains(letters, ans[:1]) {
				fmt.Fprintf(d.Out, "Answer one of %s, or enter to skip.\n", letters)
				continue
			}
			if act == ActUpdate {
				text, ok := d.ask("New text: ")
				if !ok || text == "" {
					break
				}
				texts[id] = text
			}
			out = append(out, Choice{ID: id, Action: act})
			break
		}
	}
	return out
}
