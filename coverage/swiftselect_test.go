package coverage

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
)

// selectedPaths writes files to a directory and returns the paths that a
// count finds test files.
func selectedPaths(t *testing.T, files map[string]string) []string {
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
	got := []string{}
	for _, f := range counts.Files {
		got = append(got, f.Path)
	}
	sort.Strings(got)
	return got
}

// TestSwiftSelection checks that a SwiftPM package's test files are the
// sources of its test targets, read from Package.swift's literals.
func TestSwiftSelection(t *testing.T) {
	const xc = "import XCTest\nfinal class ATests: XCTestCase { func testA() { XCTAssertEqual(1, f()) } }\n"
	const manifest = `// swift-tools-version:5.9
import PackageDescription
let package = Package(
    name: "Calc",
    targets: [
        .target(name: "Calc"),
        .testTarget(name: "CalcTests", dependencies: ["Calc", .product(name: "X", package: "x")]),
        // .testTarget(name: "OldTests"),
        /* .testTarget(name: "GoneTests"), */
        .testTarget(
            name: "IntegrationTests",
            path: "Checks/Integration",
            exclude: ["Fixtures", "Slow.swift"]
        ),
    ]
)
`
	cases := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"no package keeps the name globs", map[string]string{
			"Tests/ATests.swift": xc, "App/ViewTests.swift": xc, "App/View.swift": xc,
		}, []string{"App/ViewTests.swift", "Tests/ATests.swift"}},
		{"test targets and their paths", map[string]string{
			"Package.swift":                          manifest,
			"Tests/CalcTests/ATests.swift":           xc,
			"Tests/CalcTests/Sub/Helpers.swift":      xc,
			"Tests/OldTests/OldTests.swift":          xc,
			"Tests/GoneTests/GoneTests.swift":        xc,
			"Sources/Calc/CalcTests.swift":           xc,
			"Checks/Integration/Flow.swift":          xc,
			"Checks/Integration/Slow.swift":          xc,
			"Checks/Integration/Fixtures/Fx.swift":   xc,
			"Vendor/Other/Package.swift":             "let package = Package(name: \"O\", targets: [.testTarget(name: \"OTests\")])\n",
			"Vendor/Other/Tests/OTests/OTests.swift": xc,
			"Vendor/Other/Tests/Lost/LTests.swift":   xc,
		}, []string{"Checks/Integration/Flow.swift", "Tests/CalcTests/ATests.swift", "Tests/CalcTests/Sub/Helpers.swift", "Vendor/Other/Tests/OTests/OTests.swift"}},
		{"a test target without a path may live in Sources", map[string]string{
			"Package.swift":                `let package = Package(name: "P", targets: [.testTarget(name: "PTests", sources: ["Unit"])])`,
			"Sources/PTests/Unit/U.swift":  xc,
			"Sources/PTests/Other/O.swift": xc,
		}, []string{"Sources/PTests/Unit/U.swift"}},
		{"a computed name keeps the name globs", map[string]string{
			"Package.swift":             "let n = \"ATests\"\nlet package = Package(name: \"P\", targets: [.testTarget(name: n)])\n",
			"Tests/ATests/ATests.swift": xc,
			"Sources/P/FooTests.swift":  xc,
			"Sources/P/Foo.swift":       xc,
		}, []string{"Sources/P/FooTests.swift", "Tests/ATests/ATests.swift"}},
		{"a test target of another form keeps the name globs", map[string]string{
			"Package.swift":             "let package = Package(name: \"P\", targets: [Target(name: \"ATests\", type: .test)])\n",
			"Tests/ATests/ATests.swift": xc,
			"Sources/P/Foo.swift":       xc,
		}, []string{"Tests/ATests/ATests.swift"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := selectedPaths(t, c.files); !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}
