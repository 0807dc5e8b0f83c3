package web

import (
	"cmp"
	"slices"
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
	Y         int // top of the bar
	Width     int // of the bar, in pixels
	TextX     int // where the value is written, just past the bar
	BaselineY int // where labels sit
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
		w := 0
		if top > 0 {
			w = counts[l] * plotBarMax / top
		}
		if counts[l] > 0 {
			w = max(w, 1) // a bar that exists is visible
		}
		y := i * plotRow
		c.Bars = append(c.Bars, bar{Label: l, Value: counts[l], Y: y + 3, Width: w, TextX: plotLabelWidth + w + 6, BaselineY: y + 17})
	}
	return c
}
