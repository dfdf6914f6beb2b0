package site

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/keyfindings/keyfindings/diff"
	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/route"
)

// The plot of route totals on the releases index: one line per
// representative model, x the releases oldest first, y the o200k_base
// total of its route's counted sections. This file lays it out;
// releases-routes.html.tmpl draws it with html/template.

// RouteTotal is a representative model's route total at one release, as
// the releases manifest keeps it so that the plot needs no release's
// records but the one being written.
type RouteTotal struct {
	Model    string `json:"model"`
	Provider string `json:"provider"`
	// O200kBase is the o200k_base total of the route's counted sections;
	// nil when the route could not be evaluated at that release.
	O200kBase *int `json:"o200k_base"`
}

// routeTotals evaluates the routes of cfg's models on doc.
func routeTotals(doc *findings.Document, cfg *route.Config) []RouteTotal {
	return totalsOf(route.Totals(doc, cfg))
}

// totalsOf is routeTotals of the routes route.Totals evaluated.
func totalsOf(results []route.Result) []RouteTotal {
	var out []RouteTotal
	for _, res := range results {
		t := RouteTotal{Model: res.Model.ID, Provider: res.Model.Provider}
		if res.Route != nil {
			n := res.Route.Tokens.O200kBase
			t.O200kBase = &n
		}
		out = append(out, t)
	}
	return out
}

// Plot geometry, in SVG user units (CSS pixels).
const (
	plotLeft    = 64  // room for the y labels
	plotTop     = 28  // above the highest tick: the axis title
	plotHeight  = 220 // the y axis
	plotStep    = 32  // between releases, at most
	plotMinW    = 240 // the x axis at least
	plotMaxW    = 780 // the x axis at most, unless releases would be closer than plotMinStep
	plotMinStep = 6
	// plotLabelPitch is the least distance between two release labels;
	// closer releases have every k-th labelled (and the newest).
	plotLabelPitch = 16
	plotBelow      = 76 // the rotated release labels
)

// plotStyles tell the lines apart by colour, dash and marker, so that
// they read in greyscale too.
var plotStyles = []struct{ Color, Dash, Marker string }{
	{"#0969da", "", "circle"},
	{"#cf222e", "6 3", "square"},
	{"#1a7f37", "2 3", "triangle"},
	{"#8250df", "8 3 2 3", "diamond"},
	{"#bc4c00", "", "square"},
	{"#1b7c83", "6 3", "triangle"},
	{"#bf3989", "2 3", "diamond"},
	{"#57606a", "8 3 2 3", "circle"},
	{"#9a6700", "", "triangle"},
}

// routesPlotView is the data of releases-routes.html.tmpl.
type routesPlotView struct {
	Title         string
	Width, Height int
	// X0, X1, Y0, Y1 frame the plot area (Y0 is the top).
	X0, X1, Y0, Y1 int
	// Axis names the y axis.
	Axis    string
	Ticks   []plotTick
	Columns []matrixColumn
	Series  []plotSeries
}

// plotTick is one y gridline.
type plotTick struct {
	Y     int
	Label string
}

// plotSeries is one model's line.
type plotSeries struct {
	Label              string
	Color, Dash, Shape string
	// Paths are the line's segments ("M x y L x y …"); a release where
	// the route could not be evaluated breaks the line.
	Paths  []string
	Points []plotPoint
	// Note is what the legend says besides the label: the last total,
	// the change since the first, a line hidden under another's.
	Note string
}

// plotPoint is one model at one release.
type plotPoint struct {
	X, Y int
	// Mark is set where the marker is drawn: where the total changed,
	// and at the first and last release.
	Mark        bool
	Href, Title string
}

// buildRoutesPlot lays out the plot for the releases oldest first and
// their route totals; nil when no route could be evaluated anywhere.
func buildRoutesPlot(tags []string, totals [][]RouteTotal) *routesPlotView {
	type key struct{ model, provider string }
	var order []key
	values := map[key][]*int{}
	maxTotal := 0
	for i, ts := range totals {
		for _, t := range ts {
			k := key{t.Model, t.Provider}
			if values[k] == nil {
				values[k] = make([]*int, len(tags))
				order = append(order, k)
			}
			values[k][i] = t.O200kBase
			if t.O200kBase != nil {
				maxTotal = max(maxTotal, *t.O200kBase)
			}
		}
	}
	if maxTotal == 0 {
		return nil
	}
	n := len(tags)
	step, top := niceScale(maxTotal)
	dx := plotStep
	if n > 1 {
		dx = max(plotMinStep, min(plotStep, plotMaxW/(n-1)))
	}
	w := max(plotMinW, dx*(n-1))
	every := (plotLabelPitch + dx - 1) / dx
	v := &routesPlotView{Title: "o200k_base total of each representative model's route, by release", X0: plotLeft, X1: plotLeft + w, Y0: plotTop, Y1: plotTop + plotHeight, Axis: "o200k_base tokens"}
	x := func(i int) int {
		if n == 1 {
			return v.X0 + w/2
		}
		return v.X0 + i*w/(n-1)
	}
	y := func(total int) int { return v.Y1 - total*plotHeight/top }
	for t := 0; t <= top; t += step {
		v.Ticks = append(v.Ticks, plotTick{Y: y(t), Label: strconv.Itoa(t)})
	}
	for i, tag := range tags {
		// Every k-th release, and the newest, not crowding the one before it.
		if i == n-1 || i%every == 0 && i+every <= n-1 {
			v.Columns = append(v.Columns, matrixColumn{Tag: tag, Href: tag + "/" + routesFile, X: x(i) + 4, Y: v.Y1 + 14})
		}
	}
	for s, k := range order {
		st := plotStyles[s%len(plotStyles)]
		ser := plotSeries{Label: k.model, Color: st.Color, Dash: st.Dash, Shape: st.Marker}
		if k.provider != "" {
			ser.Label += " (" + k.provider + ")"
		}
		var path []string
		for i, val := range values[k] {
			if val == nil {
				ser.Paths = appendPath(ser.Paths, path)
				path = nil
				continue
			}
			px, py := x(i), y(*val)
			path = append(path, fmt.Sprintf("%d %d", px, py))
			// A marker where the total changed (and at the ends); elsewhere
			// only the link.
			mark := i == 0 || i == n-1 || values[k][i-1] == nil || *values[k][i-1] != *val
			ser.Points = append(ser.Points, plotPoint{X: px, Y: py, Mark: mark, Href: tags[i] + "/" + routesFile + "#route-" + slugify(k.model),
				Title: fmt.Sprintf("%s at %s: %d o200k_base tokens", ser.Label, tags[i], *val)})
		}
		ser.Paths = appendPath(ser.Paths, path)
		ser.Note = legendNote(values[k], tags)
		for _, prev := range order[:s] {
			if sameValues(values[prev], values[k]) {
				ser.Note += "; the same totals as " + prev.model + " (the lines coincide)"
				break
			}
		}
		v.Series = append(v.Series, ser)
	}
	v.Width = v.X1 + 24
	v.Height = v.Y1 + plotBelow
	return v
}

// appendPath adds a segment of points to paths, as an SVG path.
func appendPath(paths, points []string) []string {
	if len(points) == 0 {
		return paths
	}
	return append(paths, "M"+strings.Join(points, " L"))
}

// legendNote gives the latest total and the change since the oldest.
func legendNote(vals []*int, tags []string) string {
	first, last := -1, -1
	for i, v := range vals {
		if v != nil {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if last < 0 {
		return "not evaluated at any release"
	}
	s := fmt.Sprintf("%d at %s", *vals[last], tags[last])
	if first != last {
		s += fmt.Sprintf(", %s since %s", diff.Signed(*vals[last]-*vals[first]), tags[first])
	}
	return s
}

func sameValues(a, b []*int) bool {
	for i := range a {
		if (a[i] == nil) != (b[i] == nil) || (a[i] != nil && *a[i] != *b[i]) {
			return false
		}
	}
	return true
}

// niceScale returns a tick step of 1, 2 or 5 times a power of ten, and
// the top of the axis, a multiple of it at or above maxValue, so that the
// axis has at most five steps.
func niceScale(maxValue int) (step, top int) {
	for p := 1; ; p *= 10 {
		for _, m := range []int{1, 2, 5} {
			step = m * p
			if top = (maxValue + step - 1) / step * step; top/step <= 5 {
				return step, top
			}
		}
	}
}
