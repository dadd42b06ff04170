package timeline

import (
	"bytes"
	"encoding/xml"
	"errors"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/coverage"
	"github.com/gitsentinel/sentinel/gitrepo"
)

// demo is four baselines: go and python grow, an acceptance lowers go's
// figures at the third commit, and the fourth commit's baseline is
// truncated.
func demo(t *testing.T) *Timeline {
	t.Helper()
	b := func(goT, goA, pyT, pyA int, acc ...coverage.Acceptance) []byte {
		return (&coverage.Baseline{Version: 1, Accepted: acc, Peaks: map[string]coverage.Peak{
			"go": {Tests: goT, Assertions: goA}, "python": {Tests: pyT, Assertions: pyA}}}).Marshal()
	}
	acc := coverage.Acceptance{At: "2026-11-29T14:00:00Z", By: "Jane <jane@example.com>", Reason: `removed the v1 API </title><script>alert("x")</script> & more` + "\x1b[31m",
		Lowered: map[string]map[string][2]int{"go": {"tests": {30, 20}, "assertions": {90, 60}}}}
	logged := []gitrepo.FileCommit{
		{Hash: strings.Repeat("a", 40), Date: "2026-11-27T10:00:00Z", Author: "Jane <jane@example.com>", Title: "set up", Data: b(10, 40, 5, 10)},
		{Hash: strings.Repeat("b", 40), Date: "2026-11-28T10:00:00Z", Author: "Jane <jane@example.com>", Title: "more tests", Data: b(30, 90, 8, 20)},
		{Hash: strings.Repeat("c", 40), Date: "2026-11-29T10:00:00Z", Author: "Jane <jane@example.com>", Title: "drop v1", Data: b(20, 60, 12, 30, acc)},
		{Hash: strings.Repeat("d", 40), Date: "2026-11-30T10:00:00Z", Author: "Jane <jane@example.com>", Title: "grow", Data: b(26, 80, 14, 36, acc)},
		{Hash: strings.Repeat("e", 40), Date: "2026-12-01T10:00:00Z", Author: "Jane <jane@example.com>", Title: "truncated", Data: []byte(`{"version": 1, "peaks": {`)},
	}
	return build("", logged, nil)
}

func TestBuild(t *testing.T) {
	tl := demo(t)
	if got := strings.Join(tl.Keys, ","); got != "go,python" {
		t.Fatalf("keys %q", got)
	}
	c := tl.Commits[2]
	if len(c.Accepted) != 1 || len(c.Accepted[0].Lowered) != 2 || c.Accepted[0].Lowered[0] != (coverage.Lowering{Key: "go", Figure: "tests", Before: 30, After: 20}) {
		t.Fatalf("acceptance at the third commit: %+v", c.Accepted)
	}
	if len(tl.Commits[3].Accepted) != 0 {
		t.Fatalf("the fourth commit adds no acceptance, got %+v", tl.Commits[3].Accepted)
	}
	if h := tl.Commits[3].Highs["go"]; h.Tests != 30 || h.Assertions != 90 {
		t.Fatalf("go's high after the acceptance: %+v, want 30/90", h)
	}
	if e := tl.Commits[4].Error; !strings.Contains(e, "eeeeeeeeeeee:.sentinel/baseline.json:1:") {
		t.Fatalf("the truncated baseline's error: %q", e)
	}
	if tl.Commits[4].Peaks == nil || tl.Commits[4].Accepted == nil {
		t.Fatal("an unreadable commit's peaks and acceptances must be empty, not null")
	}
}

// TestSVGEscapes checks that the SVG is well-formed XML whatever the
// reasons hold, and that a reason's markup stays text.
func TestSVGEscapes(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteSVG(&buf, demo(t)); err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(bytes.NewReader(buf.Bytes()))
	var titles []string
	inTitle := false
	for {
		tok, err := d.Token()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				t.Fatalf("the SVG is not well-formed: %v", err)
			}
			break
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if tok.Name.Local == "script" {
				t.Fatal("a reason became a <script> element")
			}
			inTitle = tok.Name.Local == "title"
		case xml.CharData:
			if inTitle {
				titles = append(titles, string(tok))
			}
		case xml.EndElement:
			inTitle = false
		}
	}
	found := false
	for _, s := range titles {
		if strings.Contains(s, `accepted by Jane <jane@example.com>: removed the v1 API </title><script>`) && strings.Contains(s, "(go tests 30 → 20)") {
			found = true
		}
	}
	if !found {
		t.Fatalf("no tooltip holds the acceptance's reason as text; titles: %q", titles)
	}
}

// TestSVGRenders renders the chart with librsvg, the renderer GNOME and
// many documentation sites use, and checks the picture: each row's line
// in its colour along the path drawn, the fainter step line where an
// acceptance brought the figure below its high, and the red marker at the
// acceptance.
func TestSVGRenders(t *testing.T) {
	rsvg, err := exec.LookPath("rsvg-convert")
	if err != nil {
		t.Skip("rsvg-convert not installed (Debian: apt-get install librsvg2-bin)")
	}
	tl := demo(t)
	var svg bytes.Buffer
	if err := WriteSVG(&svg, tl); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(rsvg, "--format", "png")
	cmd.Stdin = &svg
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("rsvg-convert: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	c := layout(tl)
	if b := img.Bounds(); b.Dx() != c.width || b.Dy() != c.height {
		t.Fatalf("rendered %v, want %dx%d", b, c.width, c.height)
	}
	for _, p := range c.panels {
		for _, s := range p.series {
			want := hex(t, s.colour)
			// The middle of each step the line draws.
			for i := 0; i+1 < len(s.level); i++ {
				if math.IsNaN(s.level[i]) || math.IsNaN(s.level[i+1]) {
					continue
				}
				x, y := (c.xs[i]+c.xs[i+1])/2, s.level[i]
				if got := at(img, x, y); !near(got, want, 40) {
					t.Errorf("%s %s: at (%.0f,%.0f), between commits %d and %d, got %v, want the line's %v", p.figure, s.key, x, y, i, i+1, got, want)
				}
			}
			// The last commit's baseline is unreadable: no line goes there.
			n := len(s.level) - 1
			if x, y := (c.xs[n-1]+c.xs[n])/2, s.level[n-1]; near(at(img, x, y), want, 40) {
				t.Errorf("%s %s: a line runs into the unreadable commit at (%.0f,%.0f)", p.figure, s.key, x, y)
			}
		}
		// go's high holds at 30 (90) from the second commit on, above
		// the line the acceptance brought down: the step line is there,
		// the colour faded.
		goS := p.series[0]
		faded := blend(hex(t, goS.colour), 0.4)
		x, y := (c.xs[2]+c.xs[3])/2, goS.highs[2]
		if got := at(img, x, y); !near(got, faded, 40) {
			t.Errorf("%s go: the step line of the high at (%.0f,%.0f) is %v, want %v", p.figure, x, y, got, faded)
		}
		if len(p.markers) != 1 {
			t.Fatalf("%s: %d acceptance markers, want 1", p.figure, len(p.markers))
		}
		m := p.markers[0]
		if m.x != c.xs[2] || m.y != goS.level[2] {
			t.Errorf("%s: the marker is at (%.0f,%.0f), want go's point at the third commit (%.0f,%.0f)", p.figure, m.x, m.y, c.xs[2], goS.level[2])
		}
		if got := at(img, m.x, m.y); !near(got, hex(t, MarkerColour), 30) {
			t.Errorf("%s: at the acceptance (%.0f,%.0f) got %v, want the marker's %s", p.figure, m.x, m.y, got, MarkerColour)
		}
		if len(p.errMarkers) != 1 || p.errMarkers[0].x != c.xs[4] {
			t.Errorf("%s: want one mark of the unreadable baseline at the fifth commit, got %+v", p.figure, p.errMarkers)
		}
	}
}

func at(img image.Image, x, y float64) color.NRGBA {
	return color.NRGBAModel.Convert(img.At(int(math.Floor(x)), int(math.Floor(y)))).(color.NRGBA)
}

func hex(t *testing.T, s string) color.NRGBA {
	v, err := strconv.ParseUint(strings.TrimPrefix(s, "#"), 16, 32)
	if err != nil {
		t.Fatal(err)
	}
	return color.NRGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 255}
}

// blend is c at opacity a over white.
func blend(c color.NRGBA, a float64) color.NRGBA {
	f := func(v uint8) uint8 { return uint8(math.Round(float64(v)*a + 255*(1-a))) }
	return color.NRGBA{f(c.R), f(c.G), f(c.B), 255}
}

func near(a, b color.NRGBA, tol int) bool {
	d := func(x, y uint8) int { return max(int(x)-int(y), int(y)-int(x)) }
	return d(a.R, b.R) <= tol && d(a.G, b.G) <= tol && d(a.B, b.B) <= tol
}

// TestSVGSmall draws a history of no commit and of one: well-formed, and
// no NaN or infinite coordinate.
func TestSVGSmall(t *testing.T) {
	one := demo(t)
	one.Commits = one.Commits[:1]
	for name, tl := range map[string]*Timeline{"none": build("", nil, nil), "one": one} {
		var buf bytes.Buffer
		if err := WriteSVG(&buf, tl); err != nil {
			t.Fatal(err)
		}
		if s := buf.String(); strings.Contains(s, "NaN") || strings.Contains(s, "Inf") {
			t.Errorf("%s: a coordinate is not a number:\n%s", name, s)
		}
		d := xml.NewDecoder(&buf)
		for {
			if _, err := d.Token(); err != nil {
				if !errors.Is(err, io.EOF) {
					t.Errorf("%s: not well-formed: %v", name, err)
				}
				break
			}
		}
	}
}
