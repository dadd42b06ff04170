package coverage

import (
	"encoding/binary"
	"errors"

	"github.com/gitsentinel/sentinel/languages"
)

// The count cache is read on every count and written after every count
// that parsed something: in the pre-commit hook, for a tree of 1,700 test
// files, gob's reflection spent a quarter of the run decoding and encoding
// it. This codec writes the same fields by hand: varints, length-prefixed
// strings, the statuses and language names interned as they are read.
//
// A file is cacheMagic, then the number of entries, then each entry's key
// and result. Anything that does not read back whole is no cache.

// cacheMagic starts the file; its last byte is the codec's own version,
// changed with any change of layout.
var cacheMagic = []byte("SNTC\x01")

// errCacheCorrupt is any cache file that does not decode whole.
var errCacheCorrupt = errors.New("corrupt count cache")

// encodeCache writes the entries in the codec's layout.
func encodeCache(entries map[string]*languages.Result) []byte {
	w := &cacheWriter{buf: make([]byte, 0, 256*len(entries)+16)}
	w.buf = append(w.buf, cacheMagic...)
	w.uint(uint64(len(entries)))
	for k, r := range entries {
		w.str(k)
		w.result(r)
	}
	return w.buf
}

// decodeCache reads a file encodeCache wrote.
func decodeCache(b []byte) (map[string]*languages.Result, error) {
	if len(b) < len(cacheMagic) || string(b[:len(cacheMagic)]) != string(cacheMagic) {
		return nil, errCacheCorrupt
	}
	// One copy of the whole file as a string, of which every string read
	// is a part: a cache of 20,000 tests decodes without an allocation per
	// name.
	text := string(b[len(cacheMagic):])
	r := &cacheReader{buf: b[len(cacheMagic):], text: text, interned: map[string]string{}}
	n := r.count()
	m := make(map[string]*languages.Result, n)
	for i := 0; i < n && r.err == nil; i++ {
		k := r.str()
		m[k] = r.result()
	}
	if r.err != nil || len(r.buf) != 0 {
		return nil, errCacheCorrupt
	}
	return m, nil
}

type cacheWriter struct{ buf []byte }

func (w *cacheWriter) uint(v uint64) { w.buf = binary.AppendUvarint(w.buf, v) }
func (w *cacheWriter) int(v int)     { w.buf = binary.AppendVarint(w.buf, int64(v)) }
func (w *cacheWriter) str(s string)  { w.uint(uint64(len(s))); w.buf = append(w.buf, s...) }

func (w *cacheWriter) bool(b bool) {
	if b {
		w.buf = append(w.buf, 1)
	} else {
		w.buf = append(w.buf, 0)
	}
}

func (w *cacheWriter) strs(ss []string) {
	w.uint(uint64(len(ss)))
	for _, s := range ss {
		w.str(s)
	}
}

func (w *cacheWriter) result(r *languages.Result) {
	w.bool(r != nil)
	if r == nil {
		return
	}
	w.str(r.Language)
	w.uint(uint64(len(r.Tests)))
	for i := range r.Tests {
		w.test(&r.Tests[i])
	}
	w.int(r.Assertions)
	w.int(r.Vacuous)
	w.int(r.Benchmarks)
	w.int(r.Subtests)
	w.bool(r.ParseError)
	w.str(r.Constraint)
	w.bool(r.Filtered)
	w.bool(r.Python != nil)
	if r.Python != nil {
		w.python(r.Python)
	}
}

func (w *cacheWriter) test(t *languages.Test) {
	w.str(t.Name)
	w.int(t.Line)
	w.str(string(t.Status))
	w.str(t.Conditional)
	w.int(t.Assertions)
	w.int(t.Vacuous)
	w.str(t.Body)
	w.strs(t.Platforms)
	w.str(t.Note)
}

func (w *cacheWriter) python(p *languages.PyModule) {
	w.uint(uint64(len(p.Defs)))
	for i := range p.Defs {
		d := &p.Defs[i]
		w.str(d.Class)
		w.test(&d.Test)
		w.bool(d.Fixture)
		w.bool(d.Property)
		w.bool(d.ClassMethod)
	}
	w.uint(uint64(len(p.Classes)))
	for i := range p.Classes {
		c := &p.Classes[i]
		w.str(c.Path)
		w.int(c.Line)
		w.strs(c.Bases)
		w.bool(c.Skipped)
		w.bool(c.Init)
		w.int(int(c.TestAttr))
		w.strs(c.Attrs)
		w.bool(c.Conditional)
	}
	w.uint(uint64(len(p.Imports)))
	for i := range p.Imports {
		im := &p.Imports[i]
		w.int(im.Level)
		w.str(im.Module)
		w.str(im.Name)
		w.str(im.As)
		w.int(im.Line)
	}
	w.uint(uint64(len(p.Assigns)))
	for i := range p.Assigns {
		a := &p.Assigns[i]
		w.str(a.Name)
		w.str(a.Target)
		w.int(a.Line)
		w.bool(a.Deleted)
	}
	w.bool(p.Skipped)
	w.bool(p.ImportOrSkip)
	w.bool(p.SkipIf)
	w.strs(p.Ignore)
	w.strs(p.IgnoreGlob)
}

// cacheReader reads the layout; the first error sticks, and every later
// read returns a zero value.
type cacheReader struct {
	buf      []byte
	text     string // buf's bytes as one string
	err      error
	interned map[string]string
}

func (r *cacheReader) fail() {
	if r.err == nil {
		r.err = errCacheCorrupt
	}
	r.buf = nil
}

func (r *cacheReader) uint() uint64 {
	v, n := binary.Uvarint(r.buf)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.buf = r.buf[n:]
	return v
}

func (r *cacheReader) int() int {
	v, n := binary.Varint(r.buf)
	if n <= 0 || v != int64(int(v)) {
		r.fail()
		return 0
	}
	r.buf = r.buf[n:]
	return int(v)
}

// count reads a length, which can be no more than the bytes left: a
// corrupt length must not make a huge allocation.
func (r *cacheReader) count() int {
	v := r.uint()
	if v > uint64(len(r.buf)) {
		r.fail()
		return 0
	}
	return int(v)
}

func (r *cacheReader) bool() bool {
	if len(r.buf) == 0 || r.buf[0] > 1 {
		r.fail()
		return false
	}
	b := r.buf[0] == 1
	r.buf = r.buf[1:]
	return b
}

func (r *cacheReader) bytes() []byte {
	n := r.count()
	if r.err != nil {
		return nil
	}
	b := r.buf[:n]
	r.buf = r.buf[n:]
	return b
}

func (r *cacheReader) str() string {
	n := r.count()
	if r.err != nil {
		return ""
	}
	// The offset of buf in text: what has been read so far.
	off := len(r.text) - len(r.buf)
	r.buf = r.buf[n:]
	return r.text[off : off+n]
}

// intern returns one copy of a string that recurs in every entry (a
// language's name, a status, a platform).
func (r *cacheReader) intern() string {
	b := r.bytes()
	if s, ok := r.interned[string(b)]; ok {
		return s
	}
	s := string(b)
	r.interned[s] = s
	return s
}

func (r *cacheReader) strs() []string {
	n := r.count()
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = r.str()
	}
	return out
}

func (r *cacheReader) result() *languages.Result {
	if !r.bool() {
		return nil
	}
	res := &languages.Result{Language: r.intern()}
	if n := r.count(); n > 0 {
		res.Tests = make([]languages.Test, n)
		for i := range res.Tests {
			r.test(&res.Tests[i])
		}
	}
	res.Assertions = r.int()
	res.Vacuous = r.int()
	res.Benchmarks = r.int()
	res.Subtests = r.int()
	res.ParseError = r.bool()
	res.Constraint = r.intern()
	res.Filtered = r.bool()
	if r.bool() {
		res.Python = r.python()
	}
	return res
}

func (r *cacheReader) test(t *languages.Test) {
	t.Name = r.str()
	t.Line = r.int()
	t.Status = languages.Status(r.intern())
	t.Conditional = r.intern()
	t.Assertions = r.int()
	t.Vacuous = r.int()
	t.Body = r.str()
	if n := r.count(); n > 0 {
		t.Platforms = make([]string, n)
		for i := range t.Platforms {
			t.Platforms[i] = r.intern()
		}
	}
	t.Note = r.intern()
}

func (r *cacheReader) python() *languages.PyModule {
	p := &languages.PyModule{}
	if n := r.count(); n > 0 {
		p.Defs = make([]languages.PyDef, n)
		for i := range p.Defs {
			d := &p.Defs[i]
			d.Class = r.str()
			r.test(&d.Test)
			d.Fixture = r.bool()
			d.Property = r.bool()
			d.ClassMethod = r.bool()
		}
	}
	if n := r.count(); n > 0 {
		p.Classes = make([]languages.PyClass, n)
		for i := range p.Classes {
			c := &p.Classes[i]
			c.Path = r.str()
			c.Line = r.int()
			c.Bases = r.strs()
			c.Skipped = r.bool()
			c.Init = r.bool()
			c.TestAttr = int8(r.int())
			c.Attrs = r.strs()
			c.Conditional = r.bool()
		}
	}
	if n := r.count(); n > 0 {
		p.Imports = make([]languages.PyImport, n)
		for i := range p.Imports {
			im := &p.Imports[i]
			im.Level = r.int()
			im.Module = r.str()
			im.Name = r.str()
			im.As = r.str()
			im.Line = r.int()
		}
	}
	if n := r.count(); n > 0 {
		p.Assigns = make([]languages.PyAssign, n)
		for i := range p.Assigns {
			a := &p.Assigns[i]
			a.Name = r.str()
			a.Target = r.str()
			a.Line = r.int()
			a.Deleted = r.bool()
		}
	}
	p.Skipped = r.bool()
	p.ImportOrSkip = r.bool()
	p.SkipIf = r.bool()
	p.Ignore = r.strs()
	p.IgnoreGlob = r.strs()
	return p
}
