package runners

import (
	"reflect"
	"testing"
)

// TestRSpecOptions checks how .rspec lines are read.
func TestRSpecOptions(t *testing.T) {
	cases := []struct {
		in   string
		ok   bool
		want rspecOptions
	}{
		{"--color\n--require spec_helper\n", true, rspecOptions{defaultPath: "spec", pattern: rspecDefaultPattern}},
		{"--pattern a/*_spec.rb -P b/*_spec.rb\n", true, rspecOptions{defaultPath: "spec", pattern: "a/*_spec.rb,b/*_spec.rb"}},
		{"-Pc/*.rb --default-path=./t/ --exclude-pattern \"x y/*\"\n", true, rspecOptions{defaultPath: "t", pattern: "c/*.rb", exclude: "x y/*"}},
		{"--pattern 'unterminated\n", false, rspecOptions{defaultPath: "spec", pattern: rspecDefaultPattern}},
		{"--pattern\n", false, rspecOptions{defaultPath: "spec", pattern: rspecDefaultPattern}},
	}
	for _, c := range cases {
		o := rspecOptions{defaultPath: "spec", pattern: rspecDefaultPattern}
		ok := o.parse([]byte(c.in))
		if ok != c.ok || (ok && o != c.want) {
			t.Errorf("%q: got %+v %v, want %+v %v", c.in, o, ok, c.want, c.ok)
		}
	}
}

// TestRubyLiteralFiles checks which Rakefile values are read as literals.
func TestRubyLiteralFiles(t *testing.T) {
	cases := []struct {
		in       string
		inc, exc []string
		ok       bool
	}{
		{`"test/**/*_test.rb"`, []string{"test/**/*_test.rb"}, nil, true},
		{"FileList['test/a.rb', \"test/b.rb\"] # all\n", []string{"test/a.rb", "test/b.rb"}, nil, true},
		{"FileList.new(\n  'test/a.rb',\n  'test/b.rb'\n)\n", []string{"test/a.rb", "test/b.rb"}, nil, true},
		{`Dir.glob(["t/*.rb", "u/*.rb"])`, []string{"t/*.rb", "u/*.rb"}, nil, true},
		{`Dir["t/*.rb"].exclude("t/x.rb")`, []string{"t/*.rb"}, []string{"t/x.rb"}, true},
		{`%w[t/a.rb t/b.rb]`, []string{"t/a.rb", "t/b.rb"}, nil, true},
		{`"test/#{dir}/*.rb"`, nil, nil, false},
		{`FileList["t/*.rb"] - ["t/x.rb"]`, nil, nil, false},
		{`ENV["TESTS"]`, nil, nil, false},
	}
	for _, c := range cases {
		inc, exc, ok := rubyLiteralFiles(c.in)
		if ok != c.ok || !reflect.DeepEqual(inc, c.inc) || !reflect.DeepEqual(exc, c.exc) {
			t.Errorf("%q: got %q %q %v, want %q %q %v", c.in, inc, exc, ok, c.inc, c.exc, c.ok)
		}
	}
}
