package coverage

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// pyEncodingCases are Python test files in the encodings and declarations
// PEP 263 allows, and some it refuses. Each body names its tests with
// non-ASCII letters where the encoding has them.
var pyEncodingCases = []struct {
	name string
	src  string
}{
	{"emacs_latin1", "# -*- coding: latin-1 -*-\ndef test_caf\xe9():\n    assert '\xe9t\xe9' == x\nclass TestK:\n    def test_\xfc(self):\n        assert 1 == x\n"},
	{"vim_line2", "#!/usr/bin/env python\n# vim: set fileencoding=iso-8859-1 :\ndef test_na\xefve():\n    assert x\n"},
	{"line2_below_blank", "\n# coding: latin1\ndef test_\xe0():\n    assert x\n"},
	{"aliases_l1", "# coding: l1\ndef test_\xe7a():\n    assert x\n"},
	{"aliases_iso_upper", "# coding: ISO_8859_1\ndef test_\xe9():\n    assert x\n"},
	{"aliases_cp819", "# coding=cp819\ndef test_\xe9():\n    assert x\n"},
	{"aliases_latin_1_suffix", "# coding: latin-1-unix\ndef test_\xe9():\n    assert x\n"},
	{"aliases_dotted", "# coding: iso8859.1\ndef test_\xe9():\n    assert x\n"},
	{"crlf", "# coding: latin-1\r\ndef test_caf\xe9():\r\n    assert x\r\n"},
	{"cp1252", "# coding: cp1252\ndef test_euro():\n    assert '\x80\x93' == x\ndef test_\xe9():\n    pass\n"},
	{"windows_1252", "# coding: windows-1252\ndef test_\xe9():\n    assert '\x9c' == x\n"},
	{"latin9", "# coding: latin9\ndef test_\xe9():\n    assert '\xa4' == x\n"},
	{"utf8_declared", "# -*- coding: utf-8 -*-\ndef test_caf\xc3\xa9():\n    assert x\n"},
	{"utf8_sig", "# coding: utf-8-sig\ndef test_a():\n    assert x\n"},
	{"bom", "\xef\xbb\xbfdef test_bom():\n    assert x\n"},
	{"bom_utf8_declared", "\xef\xbb\xbf# coding: utf-8\ndef test_bom():\n    assert x\n"},
	{"ascii_declared", "# coding: ascii\ndef test_a():\n    assert x\n"},
	{"unknown_to_sentinel_ascii_only", "# coding: koi8-r\ndef test_a():\n    assert x\n"},
	{"formfeed", "\f# coding: latin-1\ndef test_\xe9():\n    assert x\n"},
	// Refused by Python: sentinel must not count them either.
	{"bad_line2_below_code", "x = 1\n# coding: latin-1\ndef test_caf\xe9():\n    assert x\n"},
	{"bad_line3", "#\n#\n# coding: latin-1\ndef test_caf\xe9():\n    assert x\n"},
	{"bad_bom_latin1", "\xef\xbb\xbf# coding: latin-1\ndef test_a():\n    assert x\n"},
	{"bad_bom_utf8_spelling", "\xef\xbb\xbf# coding: utf8\ndef test_a():\n    assert x\n"},
	{"bad_cp1252_undefined", "# coding: cp1252\ndef test_a():\n    assert '\x81' == x\n"},
	{"bad_ascii", "# coding: ascii\ndef test_a():\n    assert '\xe9' == x\n"},
	{"bad_utf8_declared", "# coding: utf-8\ndef test_a():\n    assert '\xe9' == x\n"},
	{"bad_cookie_after_code", "x = 1 # coding: latin-1\ndef test_caf\xe9():\n    assert x\n"},
	{"bad_no_cookie", "def test_caf\xe9():\n    assert x\n"},
	// Python reads it; sentinel does not decode KOI8-R, and says so
	// rather than count it as something else.
	{"unsupported_koi8r", "# coding: koi8-r\ndef test_a():\n    assert '\xc1' == x\n"},
}

// TestPythonEncodingsMatchAst counts files in the encodings Python reads
// and compares the test names with what Python's own ast finds; a file
// Python refuses must be skipped.
func TestPythonEncodingsMatchAst(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed")
	}
	dir := t.TempDir()
	var paths []string
	for _, c := range pyEncodingCases {
		p := filepath.Join(dir, "test_"+c.name+".py")
		if err := os.WriteFile(p, []byte(c.src), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	counts, err := Count(context.Background(), Options{Mode: Plain, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, f := range counts.Files {
		names := []string{}
		for _, tt := range f.Tests {
			names = append(names, tt.Name)
		}
		got[filepath.Join(dir, f.Path)] = names
	}
	skipped := map[string]string{}
	for _, s := range counts.Skipped {
		skipped[filepath.Join(dir, s.Path)] = s.Reason
	}
	cmd := exec.Command(py, "-c", pyDefs)
	cmd.Stdin = strings.NewReader(strings.Join(paths, "\n"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3: %v\n%s", err, stderr.String())
	}
	var want map[string][]string
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}
	compared, tests, refused := 0, 0, 0
	for i, p := range paths {
		name := pyEncodingCases[i].name
		if strings.HasPrefix(name, "unsupported_") {
			if !strings.Contains(skipped[p], "which sentinel does not decode") {
				t.Errorf("%s: sentinel counts %q (skipped: %q), want it skipped as undecodable", name, got[p], skipped[p])
			}
			continue
		}
		w, ok := want[p]
		if !ok {
			refused++
			if _, counted := got[p]; counted {
				t.Errorf("%s: Python refuses it, sentinel counts %q", name, got[p])
			}
			if !strings.HasPrefix(name, "bad_") {
				t.Errorf("%s: Python refuses it", name)
			}
			continue
		}
		compared++
		tests += len(w)
		if !reflect.DeepEqual(got[p], w) {
			t.Errorf("%s: sentinel %q (skipped: %q), ast %q", name, got[p], skipped[p], w)
		}
	}
	t.Logf("%d files, %d tests compared with ast; %d files Python refuses, all skipped", compared, tests, refused)
}
