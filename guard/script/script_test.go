package script

import (
	"strings"
	"testing"
	"time"
)

// scriptLanguages lists each language's rules and its other samples.
var scriptLanguages = []struct {
	lang  string
	rules []scriptRule
	extra []scriptSample
	min   int
}{
	{"python", pyRules(), pyExtraSamples, 25},
	{"javascript", jsRules(), jsExtraSamples, 25},
	{"ruby", rbRules(), rbExtraSamples, 15},
	{"php", phpRules(), phpExtraSamples, 15},
	{"perl", plRules(), plExtraSamples, 15},
	{"awk", awkRules(), awkExtraSamples, 15},
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
			got, err := Effects(l.lang, s.src)
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

// TestInterpreterInvocation reads interpreter command lines.
func TestInterpreterInvocation(t *testing.T) {
	for _, c := range []struct {
		argv  []string
		lang  string
		code  string
		stdin bool
		ok    bool
	}{
		{[]string{"python3", "-c", "print(1)"}, "python", "print(1)", false, true},
		{[]string{"python", "-Ic", "x"}, "python", "x", false, true},
		{[]string{"python3.12", "-cimport os"}, "python", "import os", false, true},
		{[]string{"pypy3", "-W", "ignore", "-c", "x", "arg"}, "python", "x", false, true},
		{[]string{"/usr/bin/python3", "-u", "-"}, "python", "", true, true},
		{[]string{"python3"}, "python", "", true, true},
		{[]string{"python3", "x.py", "-c", "y"}, "", "", false, false},
		{[]string{"python3", "-m", "http.server"}, "", "", false, false},
		{[]string{"python3", "-c"}, "", "", false, false},
		{[]string{"node", "-e", "x"}, "javascript", "x", false, true},
		{[]string{"node", "-pe", "1+1"}, "javascript", "1+1", false, true},
		{[]string{"node", "--eval=x()"}, "javascript", "x()", false, true},
		{[]string{"node", "-r", "ts-node/register", "--print", "y"}, "javascript", "y", false, true},
		{[]string{"node", "-"}, "javascript", "", true, true},
		{[]string{"node"}, "javascript", "", true, true},
		{[]string{"node", "server.js"}, "", "", false, false},
		{[]string{"bun", "-e", "x"}, "typescript", "x", false, true},
		{[]string{"bun", "--eval", "x"}, "typescript", "x", false, true},
		{[]string{"bun", "run", "build"}, "", "", false, false},
		{[]string{"deno", "eval", "--ext=js", "x"}, "typescript", "x", false, true},
		{[]string{"deno", "eval", "-p", "x"}, "typescript", "x", false, true},
		{[]string{"deno", "run", "main.ts"}, "", "", false, false},
		{[]string{"perl", "-e", "a", "-e", "b"}, "perl", "a\nb", false, true},
		{[]string{"perl", "-lne", "print"}, "perl", "print", false, true},
		{[]string{"perl", "-pi", "-e", "s/a/b/", "f"}, "perl", "s/a/b/", false, true},
		{[]string{"perl", "-pie", "s/a/b/"}, "", "", false, false},
		{[]string{"perl", "-MJSON", "-E", "say 1"}, "perl", "say 1", false, true},
		{[]string{"perl", "-l012", "-e", "x"}, "perl", "x", false, true},
		{[]string{"perl"}, "perl", "", true, true},
		{[]string{"perl", "x.pl"}, "", "", false, false},
		{[]string{"ruby", "-e", "puts 1"}, "ruby", "puts 1", false, true},
		{[]string{"ruby", "-rjson", "-ne", "x"}, "ruby", "x", false, true},
		{[]string{"ruby", "-r", "json", "-e", "x"}, "ruby", "x", false, true},
		{[]string{"ruby"}, "ruby", "", true, true},
		{[]string{"ruby", "app.rb"}, "", "", false, false},
		{[]string{"php", "-r", "echo 1;"}, "php", "echo 1;", false, true},
		{[]string{"php", "-d", "x=1", "-r", "y"}, "php", "y", false, true},
		{[]string{"php"}, "php", "", true, true},
		{[]string{"php", "artisan"}, "", "", false, false},
		{[]string{"php", "-f", "x.php"}, "", "", false, false},
		{[]string{"awk", "{print $1}", "f"}, "awk", "{print $1}", false, true},
		{[]string{"gawk", "-F:", "-v", "x=1", "prog"}, "awk", "prog", false, true},
		{[]string{"mawk", "-F", ":", "prog"}, "awk", "prog", false, true},
		{[]string{"busybox", "awk", "prog"}, "awk", "prog", false, true},
		{[]string{"nawk", "-f", "p.awk"}, "", "", false, false},
		{[]string{"gawk", "-e", "a", "--source", "b"}, "awk", "a\nb", false, true},
		{[]string{"ls", "-la"}, "", "", false, false},
		{nil, "", "", false, false},
	} {
		lang, code, stdin, ok := Invocation(c.argv)
		if lang != c.lang || code != c.code || stdin != c.stdin || ok != c.ok {
			t.Errorf("%q: got %q %q stdin=%v ok=%v, want %q %q stdin=%v ok=%v", c.argv, lang, code, stdin, ok, c.lang, c.code, c.stdin, c.ok)
		}
	}
}

// TestScriptErrors: code that cannot be read whole is an error, with
// the effects found in what could be read.
func TestScriptErrors(t *testing.T) {
	for _, c := range []struct {
		lang, src string
		want      []string
	}{
		{"cobol", "DISPLAY 'x'", nil},
		{"python", "import os; os.system('ls'", nil},
		{"javascript", "require('fs').unlinkSync('a'", nil},
		{"perl", `system("rm -rf /`, nil},
		{"awk", `BEGIN { system("x) }`, nil},
		{"python", strings.Repeat("exec('", 8) + "x" + strings.Repeat("')", 8), nil},
	} {
		got, err := Effects(c.lang, c.src)
		if err == nil {
			t.Errorf("%s %q: no error", c.lang, c.src)
		}
		for i, w := range c.want {
			if i >= len(got) || got[i].String() != w {
				t.Errorf("%s %q: got %v, want %v", c.lang, c.src, got, c.want)
			}
		}
	}
	// Nested eval past the depth bound is an effect the guard asks about.
	got, _ := Effects("python", strings.Repeat("exec(\"", 1)+"exec('exec(\\\"exec(1)\\\")')"+"\")")
	for _, e := range got {
		if e.Known {
			t.Errorf("nested exec: %v", got)
		}
	}
}

// FuzzScriptEffects: no input makes a reader panic or hang.
func FuzzScriptEffects(f *testing.F) {
	langs := []string{"python", "javascript", "ruby", "php", "perl", "awk", "typescript"}
	for i, l := range scriptLanguages {
		for _, r := range l.rules {
			for _, s := range r.samples {
				f.Add(uint8(i), s.src)
			}
		}
		for _, s := range l.extra {
			f.Add(uint8(i), s.src)
		}
	}
	f.Add(uint8(4), "print <<A;\n")
	f.Add(uint8(4), "s{a}{b")
	f.Add(uint8(5), "{ print | }")
	f.Fuzz(func(t *testing.T, lang uint8, src string) {
		start := time.Now()
		effects, _ := Effects(langs[int(lang)%len(langs)], src)
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("%q took %v", src, d)
		}
		for _, e := range effects {
			if e.Kind == "" || e.API == "" {
				t.Fatalf("%q: effect without kind or API: %+v", src, e)
			}
		}
	})
}

// scriptBench are one-liners an agent writes, one per language.
var scriptBench = []struct{ lang, src string }{
	{"python", "import shutil, os; shutil.rmtree(os.path.join('build', 'out'))"},
	{"javascript", "require('child_process').execSync('git status', {stdio: 'inherit'})"},
	{"ruby", `require "fileutils"; FileUtils.rm_rf("tmp/cache")`},
	{"php", "echo file_get_contents('composer.json');"},
	{"perl", `open(my $f, '<', 'a.txt') or die; print while <$f>;`},
	{"awk", `{ s += $2 } END { print s > "total.txt" }`},
	{"python", "print(sum(int(l) for l in __import__('sys').stdin))"},
	{"python", "print('hello')"},
}

// BenchmarkScriptEffects measures one call per one-liner, parser set-up
// included, as the hook pays it.
func BenchmarkScriptEffects(b *testing.B) {
	for _, c := range scriptBench {
		name := c.lang + "/" + c.src
		if len(name) > 40 {
			name = name[:40]
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Effects(c.lang, c.src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
