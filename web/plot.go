package web

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/recall-mem/recall"
)

// barChart is a horizontal bar chart drawn as SVG on the server: no script
// and no library, and it prints.
type barChart struct {
	Title  string
	Bars   []bar
	Height int // of the whole chart, in pixels
}

type bar struct {
	Label     string
	Value     int
	Y         int  // top of the bar
	Width     int  // of the bar, in pixels
	TextX     int  // where the value is written, just past the bar
	BaselineY int  // where labels sit
	Over      bool // past a limit: drawn in the warning colour
}

// Chart geometry, in pixels.
const (
	plotLabelWidth = 150
	plotBarMax     = 360
	plotRow        = 24
)

// newBarChart draws counts, largest first (ties by label); nil when there is
// nothing to draw.
func newBarChart(title string, counts map[string]int) *barChart {
	if len(counts) == 0 {
		return nil
	}
	labels := make([]string, 0, len(counts))
	top := 0
	for k, v := range counts {
		labels = append(labels, k)
		top = max(top, v)
	}
	slices.SortFunc(labels, func(a, b string) int {
		return cmp.Or(cmp.Compare(counts[b], counts[a]), cmp.Compare(a, b))
	})
	c := &barChart{Title: title, Height: len(labels) * plotRow}
	for i, l := range labels {
		c.Bars = append(c.Bars, newBar(l, counts[l], top, i))
	}
	return c
}

// newBar places the bar of value in row i, scaled so that top fills the
// chart's width.
func newBar(label string, value, top, i int) bar {
	w := 0
	if top > 0 {
		w = value * plotBarMax / top
	}
	if value > 0 {
		w = max(w, 1) // a bar that exists is visible
	}
	y := i * plotRow
	return bar{Label: label, Value: value, Y: y + 3, Width: w, TextX: plotLabelWidth + w + 6, BaselineY: y + 17}
}

// newBudgetChart draws the working set against its budget: two bars on
// one scale, so being over the budget shows as the longer bar.
func newBudgetChart(p *recall.MaintainPlan) *barChart {
	unit := p.Unit
	if unit == "" {
		unit = "words"
	}
	c := newOrderedChart("Working memory against its budget ("+unit+")",
		[]string{"working set", "budget"}, []int{p.WorkingWords, p.Target})
	if c != nil && p.WorkingWords > p.Target {
		c.Bars[0].Over = true
	}
	return c
}

// newCompressionChart draws the tokens held by the raw entries and by each
// rollup tier, with a sentence on how much smaller the rollups are than
// the entries they summarise. Nil when there are no rollups.
func newCompressionChart(tiers []recall.TierStat) (*barChart, string) {
	var labels []string
	var values []int
	rolledTokens, rolledEntries := 0, 0
	perBucket := map[string]int{}
	entries := map[string]int{}
	for _, t := range tiers {
		if t.Tier == "raw" {
			if t.Status == recall.StatusCompacted {
				rolledTokens += t.Tokens
				rolledEntries += t.Count
			}
			continue
		}
		perBucket[t.Kind] += t.Tokens
		entries[t.Kind] += t.Entries
	}
	if len(perBucket) == 0 {
		return nil, ""
	}
	if rolledTokens > 0 {
		labels, values = append(labels, "raw, rolled up"), append(values, rolledTokens)
	}
	for _, b := range recall.BucketTypes {
		if n, ok := perBucket[b]; ok {
			labels, values = append(labels, b+" rollups"), append(values, n)
		}
	}
	note := ""
	if fine := perBucket[recall.Bucket4h]; rolledTokens > 0 && fine > 0 {
		note = fmt.Sprintf("%d rolled-up entries hold about %d tokens; their 4h rollups hold %d, %.1f× less.",
			rolledEntries, rolledTokens, fine, float64(rolledTokens)/float64(fine))
	}
	return newOrderedChart("Tokens held, raw entries and rollups", labels, values), note
}

// newOrderedChart is a bar chart of values in the order given.
func newOrderedChart(title string, labels []string, values []int) *barChart {
	if len(labels) == 0 {
		return nil
	}
	top := slices.Max(values)
	c := &barChart{Title: title, Height: len(labels) * plotRow}
	for i, l := range labels {
		c.Bars = append(c.Bars, newBar(l, values[i], top, i))
	}
	return c
}

// columnChart is a vertical chart of two series side by side per column
// (memories and observations per week), each series on its own scale so
// that a few memories still show beside thousands of observations.
type columnChart struct {
	Title, NameA, NameB string
	Cols                []column
	Height, Width       int
	BaseY               int // where columns stand
	TopA, TopB          int // the largest value of each series
}

type column struct {
	Label      string
	A, B       int
	X          int // left edge of the pair
	YA, HA     int // top and height of the first series' column
	YB, HB     int
	LabelX     int
	LabelShown bool // every other label from the newest, so they do not overlap
}

// Column chart geometry, in pixels.
const (
	colPlotHeight = 120
	colWidth      = 14
	colGap        = 14
)

func newColumnChart(title, nameA, nameB string, cols []column) *columnChart {
	c := &columnChart{Title: title, NameA: nameA, NameB: nameB, BaseY: colPlotHeight + 8}
	for _, col := range cols {
		c.TopA, c.TopB = max(c.TopA, col.A), max(c.TopB, col.B)
	}
	scale := func(v, top int) int {
		if top == 0 || v == 0 {
			return 0
		}
		return max(1, v*colPlotHeight/top)
	}
	for i, col := range cols {
		col.X = 40 + i*(2*colWidth+colGap)
		col.HA, col.HB = scale(col.A, c.TopA), scale(col.B, c.TopB)
		col.YA, col.YB = c.BaseY-col.HA, c.BaseY-col.HB
		col.LabelX = col.X + colWidth
		col.LabelShown = (len(cols)-1-i)%2 == 0 // the newest week always
		c.Cols = append(c.Cols, col)
	}
	c.Width = 40 + len(cols)*(2*colWidth+colGap) + 20
	c.Height = c.BaseY + 40
	return c
}
