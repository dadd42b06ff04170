package languages

import (
	"errors"
	"testing"
)

// TestDecodePython checks the coding declarations and encodings Python
// reads; coverage's TestPythonEncodingsMatchAst checks the same against
// Python itself where it is installed.
func TestDecodePython(t *testing.T) {
	for _, c := range []struct {
		name, src, want string
		err             string
	}{
		{"utf-8 by default", "def test_é(): pass\n", "def test_é(): pass\n", ""},
		{"bom dropped", "\xef\xbb\xbfdef test_a(): pass\n", "def test_a(): pass\n", ""},
		{"emacs latin-1", "# -*- coding: latin-1 -*-\ndef test_caf\xe9(): pass\n", "# -*- coding: latin-1 -*-\ndef test_café(): pass\n", ""},
		{"vim on line 2", "#!/usr/bin/python\n# vim: set fileencoding=iso-8859-1 :\n\xfc\n", "#!/usr/bin/python\n# vim: set fileencoding=iso-8859-1 :\nü\n", ""},
		{"cr line ends", "\r# coding: latin1\r\xe9\n", "\r# coding: latin1\ré\n", ""},
		{"alias l1", "# coding=l1\n\xe9\n", "# coding=l1\né\n", ""},
		{"cp1252", "# coding: cp1252\n\x80\x93\xe9\n", "# coding: cp1252\n€“é\n", ""},
		{"latin9", "# coding: latin9\n\xa4\xbd\n", "# coding: latin9\n€œ\n", ""},
		{"unknown, ascii only", "# coding: koi8-r\ndef test_a(): pass\n", "# coding: koi8-r\ndef test_a(): pass\n", ""},
		{"line 2 below code is no declaration", "x = 1\n# coding: latin-1\n\xe9\n", "", "not valid UTF-8"},
		{"no newline, no declaration", "# coding: latin-1", "# coding: latin-1", ""},
		{"cp1252 undefined byte", "# coding: cp1252\n\x81\n", "", "not valid cp1252, the encoding its coding line declares"},
		{"ascii", "# coding: ascii\n\xe9\n", "", "not valid ascii, the encoding its coding line declares"},
		{"bom and latin-1", "\xef\xbb\xbf# coding: latin-1\n", "", "marked UTF-8 by a byte order mark but declared latin-1"},
		{"bom and utf8 spelt so", "\xef\xbb\xbf# coding: utf8\n", "", "marked UTF-8 by a byte order mark but declared utf8"},
		{"unknown, not ascii", "# coding: koi8-r\n\xc1\n", "", `in the encoding "koi8-r", which sentinel does not decode`},
	} {
		got, err := decodePython([]byte(c.src))
		var ee *EncodingError
		switch {
		case c.err != "" && (!errors.As(err, &ee) || err.Error() != c.err):
			t.Errorf("%s: error %v, want %q", c.name, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.err == "" && string(got) != c.want:
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
