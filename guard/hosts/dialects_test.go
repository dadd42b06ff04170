package hosts

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDialectsRefuseOthersEvents feeds every recorded event to every
// other dialect: a dialect reads another host's event only where it
// shares that host's shape (a Claude-shaped envelope), never by reading
// the wrong keys.
func TestDialectsRefuseOthersEvents(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "fixtures", "guard", "events", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatal(err)
	}
	for _, f := range files {
		host := strings.SplitN(filepath.Base(f), "-", 2)[0]
		input, _ := os.ReadFile(f)
		o, _ := parseObject(input)
		sig := signature(o)
		for _, name := range DialectNames() {
			if name == host || name == "amp" {
				continue // Amp's stdin is the model's own arguments
			}
			_, err := Dialects[name].Parse(input)
			shared := len(sig) == 1 && reads(name, sig)
			if err == nil && !shared {
				t.Errorf("%s read %s's event %s", name, host, filepath.Base(f))
			}
		}
	}
}
