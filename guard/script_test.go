package guard

import (
	"strings"
	"testing"
)

// scriptLanguages lists each language's rules and its other samples.
var scriptLanguages = []struct {
	lang  string
	rules []scriptRule
	extra []scriptSample
	min   int
}{
	{"python", pyRules, pyExtraSamples, 25},
	{"javascript", jsRules, jsExtraSamples, 25},
	{"ruby", rbRules, rbExtraSamples, 15},
	{"php", phpRules, phpExtraSamples, 15},
	{"perl", plRules, plExtraSamples, 15},
	{"awk", awkRules, awkExtraSamples, 15},
}

// TestScriptSamples runs every sample of every language: each rule must
// carry a positive sample, and each sample must yield exactly its effects.
func TestScriptSamples(t *testing.T) {
	for _, l := range scriptLanguages {
		n := 0
		var negatives int
		check := func(s scriptSample) {
			n++
			if len(s.want) == 0 {
				negatives++
			}
			got, err := ScriptEffects(l.lang, s.src)
			if err != nil {
				t.Errorf("%s %q: %v", l.lang, s.src, err)
			}
			var gs []string
			for _, e := range got {
				gs = append(gs, e.String())
				if e.API == "" {
					t.Errorf("%s %q: effect %s has no API", l.lang, s.src, e)
				}
			}
			if strings.Join(gs, "\n") != strings.Join(s.want, "\n") {
				t.Errorf("%s %q:\n got %q\nwant %q", l.lang, s.src, gs, s.want)
			}
		}
		for _, r := range l.rules {
			positive := false
			for _, s := range r.samples {
				positive = positive || len(s.want) > 0
				check(s)
			}
			if !positive {
				t.Errorf("%s rule %v has no positive sample", l.lang, r.apis)
			}
		}
		for _, s := range l.extra {
			check(s)
		}
		if n < l.min || negatives < 3 {
			t.Errorf("%s has %d samples, %d negative: want %d and 3", l.lang, n, negatives, l.min)
		}
	}
}
