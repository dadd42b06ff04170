package suggest

import "testing"

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"count", "count", 0},
		{"cuont", "count", 1},
		{"auto_rasie", "auto_raise", 1},
		{"stauts", "status", 1},
		{"kitten", "sitting", 3},
		{"ca", "abc", 3},
		{"héllo", "hello", 1},
	} {
		if got := Distance(tc.a, tc.b); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := Distance(tc.b, tc.a); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.b, tc.a, got, tc.want)
		}
	}
}

func TestClosest(t *testing.T) {
	cmds := []string{"accept", "check", "ci", "count", "status", "install", "uninstall"}
	for _, tc := range []struct{ word, want string }{
		{"cuont", "count"},
		{"stats", "status"},
		{"instal", "install"},
		{"chek", "check"},
		{"frobnicate", ""},
		{"x", ""},
		{"count", ""},
	} {
		if got := Closest(tc.word, cmds); got != tc.want {
			t.Errorf("Closest(%q) = %q, want %q", tc.word, got, tc.want)
		}
	}
	if got := DidYouMean("auto_rasie", []string{"auto_raise", "signers"}, nil); got != " (did you mean auto_raise?)" {
		t.Errorf("DidYouMean = %q", got)
	}
}
