package coverage

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkCountGoStdlib counts the test files of the Go standard library
// as plain files, without a cache: the parsing and analysis of every file.
func BenchmarkCountGoStdlib(b *testing.B) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip("no Go toolchain")
	}
	src := filepath.Join(strings.TrimSpace(string(out)), "src")
	for b.Loop() {
		c, err := Count(context.Background(), Options{Mode: Plain, Dir: src})
		if err != nil {
			b.Fatal(err)
		}
		if c.Total().Tests < 5000 {
			b.Fatalf("counted %d tests", c.Total().Tests)
		}
	}
}
