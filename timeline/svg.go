package timeline

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/gitsentinel/sentinel/coverage"
	"github.com/gitsentinel/sentinel/gitrepo"
)

// Palette are the colours of the rows, in key order; red is kept for the
// acceptances' markers.
var Palette = []string{"#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#17becf", "#e377c2", "#7f7f7f", "#bcbd22"}

// MarkerColour is the fill of an acceptance's marker.
const MarkerColour = "#d62728"

// The chart's geometry, in SVG user units (pixels when rendered at 1:1).
const (
	svgWidth    = 900
	panelHeight = 240
	marginLeft  = 70
	marginRight = 190
	marginTop   = 64
	panelGap    = 70
	xLabels     = 7
)

// chart is the laid-out chart: what WriteSVG draws, and what a test looks
// for in the rendered image.
type chart struct {
	width, height int
	title         string
	panels        []panel
	xs            []float64 // each commit's x
	labels        []int     // the commits labelled on the x axis
}

// panel is one figure's plot: tests or assertions.
type panel struct {
	figure     string
	top, bot   float64 // the plot area's y range
	lo, hi     int     // the y axis's range
	ticks      []int
	series     []series
	markers    []marker
	errMarkers []marker
}

// series is one row's line in a panel: the recorded peaks, and under them
// the highs, fainter; both are step lines. NaN is a gap.
type series struct {
	key, colour  string
	level, highs []float64 // y per commit
}

// marker is a point with a tooltip.
type marker struct {
	x, y  float64
	title string
}

// layout places everything: commits evenly along x (the axis is the
// sequence of commits, labelled with their dates), each panel's y axis
// over the range its values take.
func layout(t *Timeline) chart {
	n := len(t.Commits)
	c := chart{width: svgWidth, title: "test ratchet: the peaks recorded in " + coverage.BaselinePath}
	plotW := float64(svgWidth - marginLeft - marginRight)
	c.xs = make([]float64, n)
	for i := range c.xs {
		if n == 1 {
			c.xs[i] = marginLeft + plotW/2
		} else {
			c.xs[i] = marginLeft + plotW*float64(i)/float64(n-1)
		}
	}
	step := max(1, (n+xLabels-1)/xLabels)
	for i := 0; i < n; i += step {
		c.labels = append(c.labels, i)
	}
	if n > 0 && c.labels[len(c.labels)-1] != n-1 {
		if len(c.labels) > 1 && n-1-c.labels[len(c.labels)-1] < step/2+1 {
			c.labels = c.labels[:len(c.labels)-1] // too close to the last
		}
		c.labels = append(c.labels, n-1)
	}
	top := float64(marginTop)
	for _, fig := range []string{coverage.FigureTests, coverage.FigureAssertions} {
		p := panel{figure: fig, top: top, bot: top + panelHeight}
		lo, hi, any := 0, 0, false
		for _, cm := range t.Commits {
			for _, m := range []map[string]coverage.Peak{cm.Peaks, cm.Highs} {
				for _, v := range m {
					f := figure(v, fig)
					if !any || f < lo {
						lo = f
					}
					if !any || f > hi {
						hi = f
					}
					any = true
				}
			}
		}
		p.lo, p.hi, p.ticks = niceRange(lo, hi)
		y := func(v int) float64 {
			return p.bot - (p.bot-p.top)*float64(v-p.lo)/float64(p.hi-p.lo)
		}
		for ki, k := range t.Keys {
			s := series{key: k, colour: Palette[ki%len(Palette)], level: make([]float64, n), highs: make([]float64, n)}
			for i, cm := range t.Commits {
				s.level[i], s.highs[i] = math.NaN(), math.NaN()
				if v, ok := cm.Peaks[k]; ok {
					s.level[i] = y(figure(v, fig))
				}
				if v, ok := cm.Highs[k]; ok && cm.Error == "" {
					s.highs[i] = y(figure(v, fig))
				}
			}
			p.series = append(p.series, s)
		}
		for i, cm := range t.Commits {
			for _, a := range cm.Accepted {
				tip := fmt.Sprintf("%s %s, accepted by %s: %s", day(cm.Date), gitrepo.ShortID(cm.Commit), a.By, a.Reason)
				placed := false
				for _, l := range a.Lowered {
					if l.Figure == fig {
						p.markers = append(p.markers, marker{c.xs[i], y(l.After), tip + fmt.Sprintf(" (%s %s %d → %d)", l.Key, l.Figure, l.Before, l.After)})
						placed = true
					}
				}
				if !placed && len(a.Lowered) == 0 && fig == coverage.FigureTests {
					// Tests let go by name lower no figure: the marker sits on the axis.
					p.markers = append(p.markers, marker{c.xs[i], p.bot, tip})
				}
			}
			if cm.Error != "" {
				p.errMarkers = append(p.errMarkers, marker{c.xs[i], p.bot, fmt.Sprintf("%s %s: %s", day(cm.Date), gitrepo.ShortID(cm.Commit), cm.Error)})
			}
		}
		c.panels = append(c.panels, p)
		top = p.bot + panelGap
	}
	c.height = int(top - panelGap + 60)
	return c
}

// niceRange widens [lo, hi] to round ticks, 4 to 6 of them.
func niceRange(lo, hi int) (int, int, []int) {
	if hi <= lo {
		lo, hi = max(0, lo-1), hi+1
	}
	raw := float64(hi-lo) / 5
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 1
	for _, m := range []float64{1, 2, 5, 10} {
		if s := m * mag; s >= raw {
			step = max(1, int(math.Round(s)))
			break
		}
	}
	lo = lo / step * step
	hi = (hi + step - 1) / step * step
	var ticks []int
	for v := lo; v <= hi; v += step {
		ticks = append(ticks, v)
	}
	return lo, hi, ticks
}

// WriteSVG writes the timeline as a standalone SVG chart: a panel for
// tests and one for assertions, a step line per row for the peaks its
// commits recorded, a fainter one under it for the highest reached (the
// two part where an acceptance lowered the peak), a red marker
// where an acceptance lowered a figure (its reason in a tooltip), a grey
// cross on the axis where a baseline does not read, and the commits'
// dates along the x axis. Every piece of text is escaped.
func WriteSVG(w io.Writer, t *Timeline) error {
	c := layout(t)
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	p(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n",
		c.width, c.height, c.width, c.height)
	p(`<rect width="100%%" height="100%%" fill="#ffffff"/>` + "\n")
	p(`<text x="%d" y="24" font-size="15" font-weight="bold">%s</text>`+"\n", marginLeft, esc(c.title))
	if len(t.Commits) == 0 {
		p(`<text x="%d" y="%d">no commit changed %s</text>`+"\n", marginLeft, marginTop+20, esc(coverage.BaselinePath))
	}
	right := float64(c.width - marginRight)
	for _, pn := range c.panels {
		y := func(v int) float64 { return pn.bot - (pn.bot-pn.top)*float64(v-pn.lo)/float64(pn.hi-pn.lo) }
		p(`<g class="panel" data-figure="%s">`+"\n", esc(pn.figure))
		p(`<text x="%d" y="%.1f" font-weight="bold">%s</text>`+"\n", marginLeft, pn.top-8, esc(pn.figure))
		for _, tk := range pn.ticks {
			p(`<line x1="%d" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#e6e6e6"/>`+"\n", marginLeft, y(tk), right, y(tk))
			p(`<text x="%d" y="%.1f" text-anchor="end" fill="#444444">%d</text>`+"\n", marginLeft-6, y(tk)+4, tk)
		}
		p(`<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#444444"/>`+"\n", marginLeft, pn.top, marginLeft, pn.bot)
		p(`<line x1="%d" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#444444"/>`+"\n", marginLeft, pn.bot, right, pn.bot)
		for _, i := range c.labels {
			cm := t.Commits[i]
			p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#444444"/>`+"\n", c.xs[i], pn.bot, c.xs[i], pn.bot+5)
			p(`<text x="%.1f" y="%.1f" text-anchor="middle" fill="#444444">%s<title>%s</title></text>`+"\n",
				c.xs[i], pn.bot+18, esc(day(cm.Date)), esc(gitrepo.ShortID(cm.Commit)+" "+cm.Title))
			p(`<text x="%.1f" y="%.1f" text-anchor="middle" fill="#888888" font-family="monospace" font-size="10">%s</text>`+"\n",
				c.xs[i], pn.bot+31, esc(gitrepo.ShortID(cm.Commit)[:min(7, len(cm.Commit))]))
		}
		// The highs underneath, then the lines, then the markers on top.
		for _, s := range pn.series {
			if d := stepPath(c.xs, s.highs); d != "" {
				p(`<path d="%s" fill="none" stroke="%s" stroke-opacity="0.4" stroke-width="2"><title>%s</title></path>`+"\n",
					d, s.colour, esc(s.key+" "+pn.figure+": the highest reached"))
			}
		}
		for _, s := range pn.series {
			p(`<g class="row" data-key="%s"><title>%s</title>`+"\n", esc(s.key), esc(s.key+" "+pn.figure))
			if d := stepPath(c.xs, s.level); d != "" {
				p(`<path d="%s" fill="none" stroke="%s" stroke-width="2.5" stroke-linejoin="round" stroke-linecap="round"/>`+"\n", d, s.colour)
			}
			for i, v := range s.level {
				if !math.IsNaN(v) {
					p(`<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>`+"\n", c.xs[i], v, s.colour)
				}
			}
			p("</g>\n")
		}
		for _, m := range pn.markers {
			p(`<circle class="accepted" cx="%.1f" cy="%.1f" r="6" fill="%s" stroke="#ffffff" stroke-width="1.5"><title>%s</title></circle>`+"\n",
				m.x, m.y, MarkerColour, esc(m.title))
		}
		for _, m := range pn.errMarkers {
			p(`<path class="unreadable" d="M%.1f %.1fl8 8m0 -8l-8 8" stroke="#555555" stroke-width="2"><title>%s</title></path>`+"\n",
				m.x-4, m.y-4, esc(m.title))
		}
		p("</g>\n")
	}
	// The legend.
	lx, ly := right+24, float64(marginTop)
	for i, k := range t.Keys {
		col := Palette[i%len(Palette)]
		p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="2.5"/>`+"\n", lx, ly, lx+22, ly, col)
		p(`<text x="%.1f" y="%.1f">%s</text>`+"\n", lx+28, ly+4, esc(k))
		ly += 18
	}
	ly += 8
	p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#444444" stroke-opacity="0.4" stroke-width="2"/>`+"\n", lx, ly, lx+22, ly)
	p(`<text x="%.1f" y="%.1f">highest reached</text>`+"\n", lx+28, ly+4)
	ly += 18
	p(`<circle cx="%.1f" cy="%.1f" r="6" fill="%s"/>`+"\n", lx+11, ly, MarkerColour)
	p(`<text x="%.1f" y="%.1f">acceptance</text>`+"\n", lx+28, ly+4)
	p("</svg>\n")
	return bw.Flush()
}

// stepPath draws the values as steps: a baseline's figure holds until the
// next commit that changes it, so the line is flat between commits and
// rises or falls at the commit that moved it.
func stepPath(xs, ys []float64) string {
	var b strings.Builder
	pen := false
	for i, y := range ys {
		if math.IsNaN(y) {
			pen = false
			continue
		}
		if !pen {
			fmt.Fprintf(&b, "M%.1f %.1f", xs[i], y)
		} else {
			fmt.Fprintf(&b, "H%.1fV%.1f", xs[i], y)
		}
		pen = true
	}
	return b.String()
}

// esc escapes text for XML; characters XML cannot hold become U+FFFD.
func esc(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s)) //nolint:errcheck // a strings.Builder does not fail
	return b.String()
}
