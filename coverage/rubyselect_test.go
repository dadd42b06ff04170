package coverage

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/gitsentinel/sentinel/internal/gittest"
)

// selectedFiles writes files into a new directory and returns the paths
// sentinel counts there, sorted.
func selectedFiles(t *testing.T, files map[string]string) []string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	counts, err := Count(context.Background(), Options{Mode: Plain, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range counts.Files {
		got = append(got, f.Path)
	}
	sort.Strings(got)
	return got
}

// TestRubySelection checks which Ruby files RSpec's pattern, a Rakefile's
// test tasks and Rails' test runner make test files, project by project.
func TestRubySelection(t *testing.T) {
	const spec = "describe X do\n  it \"works\" do\n    expect(1).to eq(x)\n  end\nend\n"
	const test = "class XTest < Minitest::Test\n  def test_works\n    assert x\n  end\nend\n"
	cases := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"no project keeps the name globs", map[string]string{
			"spec/a_spec.rb": spec, "test/b_test.rb": test, "lib/c_spec.rb": spec, "lib/d.rb": spec,
		}, []string{"lib/c_spec.rb", "spec/a_spec.rb", "test/b_test.rb"}},
		{"rspec defaults: spec/**/*_spec.rb only", map[string]string{
			".rspec": "--require spec_helper\n", "spec/a_spec.rb": spec, "spec/x/b_spec.rb": spec,
			"spec/c_specs.rb": spec, "d_spec.rb": spec, "lib/e_spec.rb": spec, "spec/support/helper.rb": spec,
		}, []string{"spec/a_spec.rb", "spec/x/b_spec.rb"}},
		{"a Gemfile and a spec directory are RSpec's project", map[string]string{
			"Gemfile": "source 'https://rubygems.org'\n", "spec/a_spec.rb": spec, "a_spec.rb": spec, "test/b_test.rb": test,
		}, []string{"spec/a_spec.rb", "test/b_test.rb"}},
		{"rspec --pattern and --exclude-pattern", map[string]string{
			".rspec":          "--pattern 'spec/**/*_check.rb'\n--exclude-pattern=\"**/slow/*_check.rb\"\n",
			"spec/a_check.rb": spec, "spec/slow/b_check.rb": spec, "spec/c_spec.rb": spec,
		}, []string{"spec/a_check.rb"}},
		{"rspec pattern joined to --default-path, .rspec-local wins", map[string]string{
			".rspec": "--default-path checks\n-P 'unit/*_spec.rb'\n", ".rspec-local": "--pattern '**/*_spec.rb'\n",
			"checks/a_spec.rb": spec, "checks/unit/b_spec.rb": spec, "spec/c_spec.rb": spec,
		}, []string{"checks/a_spec.rb", "checks/unit/b_spec.rb"}},
		{"an ERB .rspec keeps the globs", map[string]string{
			".rspec": "--pattern <%= ENV['P'] %>\n", "spec/a_spec.rb": spec, "spec/b_specs.rb": spec,
		}, []string{"spec/a_spec.rb"}},
		{"rake's default test/test*.rb", map[string]string{
			"Rakefile":       "require 'rake/testtask'\nRake::TestTask.new do |t|\n  t.libs << 'test'\nend\n",
			"test/test_a.rb": test, "test/sub/test_b.rb": test, "test/c_test.rb": test, "test/helper.rb": test,
		}, []string{"test/test_a.rb"}},
		{"rake test_files FileList with exclude", map[string]string{
			"Rakefile":         "Rake::TestTask.new(:test) do |t|\n  t.libs << \"test/lib\"\n  t.test_files = FileList[\"test/**/test_*.rb\"].exclude(\"test/slow/*.rb\")\nend\n",
			"test/x/test_a.rb": test, "test/slow/test_b.rb": test, "test/c_test.rb": test,
		}, []string{"test/x/test_a.rb"}},
		{"rake pattern outside test/, rspec beside it", map[string]string{
			"Rakefile":       "Rake::TestTask.new(:spec) { |t| t.pattern = 'spec/**/spec_*.rb' }\n",
			"spec/spec_a.rb": test, "spec/b_spec.rb": spec, "test/test_c.rb": test,
		}, []string{"spec/b_spec.rb", "spec/spec_a.rb"}},
		{"a computed pattern keeps the globs", map[string]string{
			"Rakefile":       "Rake::TestTask.new do |t|\n  t.pattern = ENV['P'] || 'test/*_test.rb'\nend\n",
			"test/a_test.rb": test, "test/sub/b_test.rb": test, "test/c.rb": test,
		}, []string{"test/a_test.rb", "test/sub/b_test.rb"}},
		{"a test task in rakelib/ adds its files", map[string]string{
			"Rakefile":                 "Rake::TestTask.new { |t| t.pattern = 'test/unit/*_test.rb' }\n",
			"rakelib/integration.rake": "Rake::TestTask.new(:integration) do |t|\n  t.test_files = Dir['test/integration/*_test.rb']\nend\n",
			"test/unit/a_test.rb":      test, "test/integration/b_test.rb": test, "test/other/c_test.rb": test,
		}, []string{"test/integration/b_test.rb", "test/unit/a_test.rb"}},
		{"files added to the list keep the globs", map[string]string{
			"Rakefile":       "Rake::TestTask.new do |t|\n  t.test_files = FileList['test/a_test.rb']\n  t.test_files += extra\nend\n",
			"test/a_test.rb": test, "test/sub/b_test.rb": test,
		}, []string{"test/a_test.rb", "test/sub/b_test.rb"}},
		{"Minitest::TestTask defaults", map[string]string{
			"Rakefile":       "Minitest::TestTask.create\n",
			"test/a_test.rb": test, "test/x/test_b.rb": test, "test/helper.rb": test,
		}, []string{"test/a_test.rb", "test/x/test_b.rb"}},
		{"rails: test/**/*_test.rb but system and dummy", map[string]string{
			"config/application.rb": "module App; class Application < Rails::Application; end; end\n",
			"test/models/a_test.rb": test, "test/system/b_test.rb": test, "test/dummy/c_test.rb": test, "test/test_d.rb": test,
		}, []string{"test/models/a_test.rb"}},
		{"nested projects", map[string]string{
			"gems/a/.rspec": "", "gems/a/spec/a_spec.rb": spec, "gems/a/spec/b_specs.rb": spec,
			"gems/b/Rakefile": "Rake::TestTask.new { |t| t.pattern = 'test/**/*_test.rb' }\n", "gems/b/test/x/c_test.rb": test,
		}, []string{"gems/a/spec/a_spec.rb", "gems/b/test/x/c_test.rb"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := selectedFiles(t, c.files); !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// TestRubyRenameOutOfPattern checks the rename an agent would try: a spec
// renamed so that RSpec's pattern no longer selects it loses its tests.
func TestRubyRenameOutOfPattern(t *testing.T) {
	gittest.Isolate(t)
	dir := t.TempDir()
	run(t, dir, nil, "init", "-q")
	write(t, dir, ".rspec", "--require spec_helper\n")
	write(t, dir, "spec/calc_spec.rb", "describe Calc do\n  it \"adds\" do\n    expect(add(1, 2)).to eq(3)\n  end\nend\n")
	run(t, dir, nil, "add", "-A")
	run(t, dir, nil, "commit", "-q", "-m", "one")
	run(t, dir, nil, "mv", "spec/calc_spec.rb", "spec/calc_specs.rb")
	run(t, dir, nil, "commit", "-q", "-m", "two")
	ls, err := CommitLosses(context.Background(), Options{Dir: dir}, "HEAD", "HEAD~1", &Baseline{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ls) != 1 || ls[0].Name != "Calc > adds" {
		t.Errorf("losses %+v, want Calc > adds", ls)
	}
}
