package main

import (
	"bufio"
	"io"
	"strconv"
	"strings"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/maintain"
)

// ask prints a prompt and reads one trimmed line; ok is false at the end
// of input.
func (a *app) ask(in *bufio.Reader, prompt string) (string, bool) {
	fprintf(a.stdout, "%s", prompt)
	line, err := in.ReadString('\n')
	if err != nil && (err != io.EOF || line == "") {
		fprintf(a.stdout, "\n")
		return "", false
	}
	line = strings.TrimSpace(line)
	if !a.stdinIsTerminal() {
		fprintf(a.stdout, "%s\n", line) // echo, so that a transcript reads as a dialogue
	}
	return line, true
}

// askCandidates asks seed 000's question, then per candidate if told to.
func (a *app) askCandidates(in *bufio.Reader, p *recall.MaintainPlan) []maintain.Choice {
	if maintain.CandidateCount(p) == 0 {
		return nil
	}
	answer, ok := a.ask(in, "Apply all / decide individually? [a/d, enter to skip] ")
	if !ok {
		return nil
	}
	switch strings.ToLower(answer) {
	case "a", "all", "apply all", "y", "yes":
		return engine.Recommended(p)
	case "d", "i", "individually", "decide individually":
	default:
		return nil
	}
	var out []maintain.Choice
	all := append(append([]recall.MaintainCandidate(nil), p.PressureCandidates...), p.SupersededCandidates...)
	for i, c := range all {
		letters := "k/p/s/d/a/m"
		if c.Action == maintain.ActArchive && c.Status == recall.StatusSuperseded {
			letters = "a/k"
		}
		for {
			ans, ok := a.ask(in, "  "+strconv.Itoa(i+1)+". ^"+c.ID+" ["+letters+", enter to skip] ")
			if !ok {
				return out
			}
			if ans == "" {
				break
			}
			act, err := maintain.ParseAction(ans)
			if err == nil && strings.Contains(letters, ans[:1]) && act != maintain.ActUpdate {
				out = append(out, maintain.Choice{ID: c.ID, Action: act})
				break
			}
			fprintf(a.stdout, "  Answer one of %s, or enter to skip.\n", letters)
		}
	}
	return out
}

// askFindings asks about stale entries, changed anchors and open loops.
func (a *app) askFindings(in *bufio.Reader, p *recall.MaintainPlan, texts map[string]string) []maintain.Choice {
	var out []maintain.Choice
	asked := false
	defer func() {
		if asked {
			fprintf(a.stdout, "\n") // set the summary apart from the questions
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
			ans, ok := a.ask(in, f.Kind+" ^"+id+" ["+letters+", enter to skip] ")
			if !ok {
				return out
			}
			if ans == "" {
				break
			}
			act, err := maintain.ParseAction(ans)
			if err != nil || !strings.Contains(letters, ans[:1]) {
				fprintf(a.stdout, "Answer one of %s, or enter to skip.\n", letters)
				continue
			}
			if act == maintain.ActUpdate {
				text, ok := a.ask(in, "New text: ")
				if !ok || text == "" {
					break
				}
				texts[id] = text
			}
			out = append(out, maintain.Choice{ID: id, Action: act})
			break
		}
	}
	return out
}
