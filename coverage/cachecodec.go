package coverage

import (
	"encoding/binary"
	"errors"
	"unsafe"

	"github.com/gitsentinel/sentinel/languages"
)

// The count cache is read on every count and written after every count
// that parsed something: in the pre-commit hook, for a tree of 1,700 test
// files, gob's reflection spent a quarter of the run decoding and encoding
// it. This codec writes the same fields by hand: varints, length-prefixed
// strings, the statuses and language names interned as they are read.
//
// A file is cacheMagic, then the number of entries, then each entry's key,
// the length of its result's encoding, and that encoding. A read scans only
// the keys and decodes a result the first time a count asks for it: a
// cache also holds the old versions of files, which a count never asks
// for, and the decode of every result was the largest part of a warm
// run. A compaction copies a result nobody asked for as the bytes it was
// read as. A file in the first layout (cacheMagicV1: no lengths) is
// decoded whole, as before, so an upgrade keeps its cache. Anything that
// does not read back whole is no cache; a result whose own bytes do not
// decode is no entry.

// cacheMagic starts the file; its last byte is the codec's own version,
// changed with any change of layout. Since the third, each entry ends with
// its tag (cachemac.go): its length, then the tag.
var cacheMagic = []byte("SNTC\x03")

// cacheMagicV2 starts a file of the second layout: entries without tags,
// which read and are trusted for nothing a check must hold.
var cacheMagicV2 = []byte("SNTC\x02")

// cacheMagicV1 starts a file of the first layout, results without their
// lengths.
var cacheMagicV1 = []byte("SNTC\x01")

// errCacheCorrupt is any cache file that does not decode whole.
var errCacheCorrupt = errors.New("corrupt count cache")

// rawResult is a result's encoding, not decoded yet: the bytes, and the
// same bytes as a string that the decoded strings are cut from.
type rawResult struct {
	b []byte
	s string
}

// cacheSet is the content of a cache file or segment: the results decoded
// so far, and the encodings of the others. A key is in one map at most.
// tags holds the tag each entry read from a file came with (nil for none),
// kept when it is decoded and written back as it was read: only a result
// this run counted from content is given a tag of its own.
type cacheSet struct {
	dec  map[string]*languages.Result
	raw  map[string]rawResult
	tags map[string][]byte
}

func newCacheSet() cacheSet {
	return cacheSet{dec: map[string]*languages.Result{}, raw: map[string]rawResult{}, tags: map[string][]byte{}}
}

func (cs cacheSet) len() int { return len(cs.dec) + len(cs.raw) }

func (cs cacheSet) has(k string) bool {
	if _, ok := cs.dec[k]; ok {
		return true
	}
	_, ok := cs.raw[k]
	return ok
}

// keys calls f with every key.
func (cs cacheSet) keys(f func(string)) {
	for k := range cs.dec {
		f(k)
	}
	for k := range cs.raw {
		f(k)
	}
}

// overlay puts every entry of o into cs, replacing the same key's.
func (cs cacheSet) overlay(o cacheSet) {
	for k := range o.dec {
		cs.copyEntry(o, k)
	}
	for k := range o.raw {
		cs.copyEntry(o, k)
	}
}

// copyEntry puts o's entry k into cs, with its tag, if o has one.
func (cs cacheSet) copyEntry(o cacheSet, k string) {
	if v, ok := o.dec[k]; ok {
		delete(cs.raw, k)
		cs.dec[k] = v
	} else if v, ok := o.raw[k]; ok {
		delete(cs.dec, k)
		cs.raw[k] = v
	} else {
		return
	}
	if t, ok := o.tags[k]; ok {
		cs.tags[k] = t
	} else {
		delete(cs.tags, k)
	}
}

// put records a result this run counted from content: it gets a tag of its
// own when it is written.
func (cs cacheSet) put(k string, r *languages.Result) {
	delete(cs.raw, k)
	delete(cs.tags, k)
	cs.dec[k] = r
}

// lookup returns the result of k, decoding it on first use; a result that
// does not decode is dropped, and is a miss. interned is shared by the
// decodes of one cache, under its lock. With a mac, only an entry this
// run counted or one whose tag proves it answers; another is dropped, so
// that it is counted again, and never written back.
func (cs cacheSet) lookup(k string, interned map[string]string, mac *cacheMAC) *languages.Result {
	if r, ok := cs.dec[k]; ok {
		if t, read := cs.tags[k]; read && mac != nil && !mac.proves(k, r, t) {
			cs.drop(k)
			return nil
		}
		return r
	}
	raw, ok := cs.raw[k]
	if !ok {
		return nil
	}
	if mac != nil && !mac.provesRaw(k, raw.b, cs.tags[k]) {
		cs.drop(k)
		return nil
	}
	delete(cs.raw, k)
	r, err := decodeResult(raw, interned)
	if err != nil {
		delete(cs.tags, k)
		return nil
	}
	cs.dec[k] = r
	return r
}

// drop removes the entry k.
func (cs cacheSet) drop(k string) {
	delete(cs.dec, k)
	delete(cs.raw, k)
	delete(cs.tags, k)
}

// encodeCache writes the entries in the codec's layout, each tagged by
// mac (untagged when mac is nil).
func encodeCache(entries map[string]*languages.Result, mac *cacheMAC) []byte {
	return encodeSet(cacheSet{dec: entries}, mac)
}

// encodeSet writes a cache set, its undecoded results as they were read,
// each entry read from a file with the tag it came with, and every other
// with a tag by mac.
func encodeSet(cs cacheSet, mac *cacheMAC) []byte {
	size := 256*len(cs.dec) + 16
	for k, r := range cs.raw {
		size += len(k) + len(r.b) + 8
	}
	w := &cacheWriter{buf: make([]byte, 0, size)}
	w.buf = append(w.buf, cacheMagic...)
	w.uint(uint64(cs.len()))
	var scratch cacheWriter
	for k, r := range cs.dec {
		w.str(k)
		scratch.buf = scratch.buf[:0]
		scratch.result(r)
		w.uint(uint64(len(scratch.buf)))
		w.buf = append(w.buf, scratch.buf...)
		tag, read := cs.tags[k]
		if !read {
			tag = mac.tag(k, scratch.buf)
		}
		w.tag(tag)
	}
	for k, r := range cs.raw {
		w.str(k)
		w.uint(uint64(len(r.b)))
		w.buf = append(w.buf, r.b...)
		w.tag(cs.tags[k])
	}
	return w.buf
}

// tag writes an entry's tag: its length, then its bytes.
func (w *cacheWriter) tag(t []byte) {
	w.uint(uint64(len(t)))
	w.buf = append(w.buf, t...)
}

// scanCache reads the keys of a cache file and leaves the results to be
// decoded on use; a file of the first layout is decoded whole. The set
// keeps parts of b, which must not change afterwards.
func scanCache(b []byte) (cacheSet, error) {
	if len(b) >= len(cacheMagicV1) && string(b[:len(cacheMagicV1)]) == string(cacheMagicV1) {
		m, err := decodeCacheV1(b)
		tags := make(map[string][]byte, len(m))
		for k := range m {
			tags[k] = nil
		}
		return cacheSet{dec: m, raw: map[string]rawResult{}, tags: tags}, err
	}
	tagged := len(b) >= len(cacheMagic) && string(b[:len(cacheMagic)]) == string(cacheMagic)
	if !tagged && (len(b) < len(cacheMagicV2) || string(b[:len(cacheMagicV2)]) != string(cacheMagicV2)) {
		return cacheSet{}, errCacheCorrupt
	}
	b = b[len(cacheMagic):]
	// The strings are cut from the file's bytes without a copy: b is this
	// read's own buffer, and nothing writes to it.
	text := unsafe.String(unsafe.SliceData(b), len(b))
	r := &cacheReader{buf: b, text: text}
	n := r.count()
	cs := cacheSet{dec: map[string]*languages.Result{}, raw: make(map[string]rawResult, n), tags: make(map[string][]byte, n)}
	for i := 0; i < n && r.err == nil; i++ {
		k := r.str()
		m := r.count()
		if r.err != nil {
			break
		}
		off := len(r.text) - len(r.buf)
		cs.raw[k] = rawResult{b: r.buf[:m:m], s: r.text[off : off+m]}
		r.buf = r.buf[m:]
		var tag []byte
		if tagged {
			if t := r.count(); r.err == nil {
				tag, r.buf = r.buf[:t:t], r.buf[t:]
			}
		}
		cs.tags[k] = tag
	}
	if r.err != nil || len(r.buf) != 0 {
		return cacheSet{}, errCacheCorrupt
	}
	return cs, nil
}

// decodeResult decodes one result's encoding, which must be read whole.
func decodeResult(raw rawResult, interned map[string]string) (*languages.Result, error) {
	r := &cacheReader{buf: raw.b, text: raw.s, interned: interned}
	res := r.result()
	if r.err != nil || len(r.buf) != 0 {
		return nil, errCacheCorrupt
	}
	return res, nil
}

// decodeCacheV1 reads a file of the first layout, whole.
func decodeCacheV1(b []byte) (map[string]*languages.Result, error) {
	text := string(b[len(cacheMagicV1):])
	r := &cacheReader{buf: b[len(cacheMagicV1):], text: text, interned: map[string]string{}}
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
	w.str(r.PackageOff)
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
	if len(b) == 0 {
		// Most conditions, notes and constraints are empty.
		return ""
	}
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
	res.PackageOff = r.intern()
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
