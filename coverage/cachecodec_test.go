package coverage

import (
	"bytes"
	"context"
	"encoding/gob"
	"fmt"
	"math/rand"
	"reflect"
	"testing"

	"github.com/gitsentinel/sentinel/languages"
)

// fill sets every exported field below v to a value of the seed's choosing,
// never the zero value, so that a field the codec forgets, today or when
// one is added, fails the round trip.
func fill(v reflect.Value, r *rand.Rand) {
	switch v.Kind() {
	case reflect.Ptr:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), r)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), r)
			}
		}
	case reflect.Slice:
		n := 1 + r.Intn(3)
		v.Set(reflect.MakeSlice(v.Type(), n, n))
		for i := 0; i < n; i++ {
			fill(v.Index(i), r)
		}
	case reflect.String:
		b := make([]byte, 1+r.Intn(12))
		for i := range b {
			b[i] = byte(r.Intn(256))
		}
		v.SetString(string(b))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n := int64(r.Intn(200) - 100)
		if n == 0 {
			n = -1
		}
		v.SetInt(n)
	default:
		panic("fill: no value for " + v.Type().String())
	}
}

func TestCacheCodecRoundTrip(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	entries := map[string]*languages.Result{"empty": {}, "nil": nil}
	for i := 0; i < 200; i++ {
		var res languages.Result
		fill(reflect.ValueOf(&res).Elem(), r)
		entries[string(rune('a'+i%26))+string(rune(i))] = &res
	}
	got, err := decodeCache(encodeCache(entries, nil))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, entries) {
		for k, want := range entries {
			if !reflect.DeepEqual(got[k], want) {
				t.Fatalf("entry %q:\n got %#v\nwant %#v", k, got[k], want)
			}
		}
		t.Fatal("the decoded cache differs")
	}
}

// TestCacheCodecAgreesWithGob holds the codec to what gob, which wrote the
// cache before, keeps of a real count.
func TestCacheCodecAgreesWithGob(t *testing.T) {
	entries := map[string]*languages.Result{}
	p := languages.NewParser()
	defer p.Close()
	for _, l := range languages.All() {
		for i, s := range l.Samples {
			res, err := p.Count(context.Background(), l, s.Path, []byte(s.Source))
			if err != nil || res == nil {
				continue
			}
			entries[cacheKey(l.Name, s.Path, string(rune(i)))] = res
		}
	}
	if len(entries) < 50 {
		t.Fatalf("only %d samples counted", len(entries))
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(entries); err != nil {
		t.Fatal(err)
	}
	var viaGob map[string]*languages.Result
	if err := gob.NewDecoder(&buf).Decode(&viaGob); err != nil {
		t.Fatal(err)
	}
	got, err := decodeCache(encodeCache(entries, nil))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, viaGob) {
		t.Fatal("the codec and gob keep different counts")
	}
}

func TestCacheCodecRefusesDamage(t *testing.T) {
	var res languages.Result
	fill(reflect.ValueOf(&res).Elem(), rand.New(rand.NewSource(1)))
	b := encodeCache(map[string]*languages.Result{"k": &res}, nil)
	for n := 0; n < len(b); n++ {
		if _, err := decodeCache(b[:n]); err == nil {
			t.Fatalf("a file cut at %d of %d bytes decoded", n, len(b))
		}
	}
	if _, err := decodeCache(append(append([]byte(nil), b...), 0)); err == nil {
		t.Fatal("a file with a byte after its end decoded")
	}
}

func FuzzDecodeCache(f *testing.F) {
	var res languages.Result
	fill(reflect.ValueOf(&res).Elem(), rand.New(rand.NewSource(2)))
	f.Add(encodeCache(map[string]*languages.Result{"k": &res, "n": nil}, nil))
	f.Add([]byte("SNTC\x01\x01"))
	f.Add([]byte("SNTC\x02\x01\x01k\x01\x00"))
	f.Add(encodeCacheV1(map[string]*languages.Result{"k": &res}))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := decodeCache(b)
		if err != nil {
			return
		}
		again, err := decodeCache(encodeCache(m, nil))
		if err != nil || !reflect.DeepEqual(again, m) {
			t.Fatalf("a decoded cache does not survive a round trip: %v", err)
		}
	})
}

// encodeCacheV1 writes the first layout, results without their lengths,
// as a cache of an earlier build holds them.
func encodeCacheV1(entries map[string]*languages.Result) []byte {
	w := &cacheWriter{}
	w.buf = append(w.buf, cacheMagicV1...)
	w.uint(uint64(len(entries)))
	for k, r := range entries {
		w.str(k)
		w.result(r)
	}
	return w.buf
}

func randomEntries(seed int64, n int) map[string]*languages.Result {
	r := rand.New(rand.NewSource(seed))
	entries := map[string]*languages.Result{}
	for i := 0; i < n; i++ {
		var res languages.Result
		fill(reflect.ValueOf(&res).Elem(), r)
		entries[cacheKey("go", ".go", string(rune('a'+i)))] = &res
	}
	return entries
}

// TestCacheReadsFirstLayout keeps an upgrade's cache: a file an earlier
// build wrote reads back whole, and is rewritten in the current layout.
func TestCacheReadsFirstLayout(t *testing.T) {
	entries := randomEntries(3, 20)
	got, err := decodeCache(encodeCacheV1(entries))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, entries) {
		t.Fatal("a file of the first layout decodes to other counts")
	}
	again, err := decodeCache(encodeCache(got, nil))
	if err != nil || !reflect.DeepEqual(again, entries) {
		t.Fatalf("rewritten in the current layout, it does not read back: %v", err)
	}
	if !bytes.HasPrefix(encodeCache(got, nil), cacheMagic) {
		t.Fatal("the rewrite is not in the current layout")
	}
}

// TestCacheDamagedResultIsAMiss: a result whose bytes do not decode is no
// entry, and the entries around it still are.
func TestCacheDamagedResultIsAMiss(t *testing.T) {
	entries := randomEntries(4, 3)
	cs, err := scanCache(encodeCache(entries, nil))
	if err != nil {
		t.Fatal(err)
	}
	var bad string
	for k := range cs.raw {
		bad = k
		break
	}
	raw := cs.raw[bad]
	b := append([]byte(nil), raw.b...)
	b[0] = 7 // not a boolean: the result cannot start so
	cs.raw[bad] = rawResult{b: b, s: string(b)}
	interned := map[string]string{}
	if r := cs.lookup(bad, interned, nil); r != nil {
		t.Fatal("a damaged result decoded")
	}
	if cs.has(bad) {
		t.Fatal("a damaged result stays in the cache")
	}
	for k, want := range entries {
		if k == bad {
			continue
		}
		if got := cs.lookup(k, interned, nil); !reflect.DeepEqual(got, want) {
			t.Fatalf("entry %q beside the damaged one: got %#v", k, got)
		}
	}
}

// TestCacheCompactionKeepsUndecoded: a compaction writes the results no
// run asked for as the bytes it read, and they decode as before.
func TestCacheCompactionKeepsUndecoded(t *testing.T) {
	entries := randomEntries(5, 30)
	file := encodeCache(entries, nil)
	cs, err := scanCache(append([]byte(nil), file...))
	if err != nil {
		t.Fatal(err)
	}
	interned := map[string]string{}
	n := 0
	for k := range entries {
		if n++; n > 10 {
			break
		}
		cs.lookup(k, interned, nil) // decoded: written again by the encoder
	}
	if len(cs.raw) != 20 || len(cs.dec) != 10 {
		t.Fatalf("after 10 lookups: %d undecoded, %d decoded", len(cs.raw), len(cs.dec))
	}
	got, err := decodeCache(encodeSet(cs, nil))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, entries) {
		t.Fatal("a compaction of a partly decoded cache changed its counts")
	}
}

// BenchmarkCacheRead reads a cache of 3,000 entries of 20 tests each, as a
// count opens it: the keys only (scan), and every result decoded (full),
// which is what a read cost before results were decoded on demand.
func BenchmarkCacheRead(b *testing.B) {
	r := rand.New(rand.NewSource(9))
	entries := map[string]*languages.Result{}
	for i := 0; i < 3000; i++ {
		res := &languages.Result{Language: "go", Assertions: 40}
		for j := 0; j < 20; j++ {
			res.Tests = append(res.Tests, languages.Test{Name: fmt.Sprintf("Test%d_%d", i, j), Line: 10 * j, Status: "active", Assertions: 2, Body: fmt.Sprintf("%016x", r.Uint64())})
		}
		entries[cacheKey("go", ".go", fmt.Sprintf("%040x", i))] = res
	}
	file := encodeCache(entries, nil)
	b.Run("scan", func(b *testing.B) {
		for b.Loop() {
			if _, err := scanCache(bytes.Clone(file)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("full", func(b *testing.B) {
		for b.Loop() {
			if _, err := decodeCache(bytes.Clone(file)); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// decodeCache reads a file encodeCache wrote, every result decoded: a
// result that does not decode makes the whole file corrupt.
func decodeCache(b []byte) (map[string]*languages.Result, error) {
	cs, err := scanCache(b)
	if err != nil {
		return nil, err
	}
	interned := map[string]string{}
	for k, raw := range cs.raw {
		r, err := decodeResult(raw, interned)
		if err != nil {
			return nil, err
		}
		cs.dec[k] = r
	}
	return cs.dec, nil
}

// readCache decodes the cache file and its segments, every entry; nil
// when there is no file, or it is odd (a link, a FIFO, too large,
// corrupt): an empty cache.
func readCache(root, rel string) map[string]*languages.Result {
	cs, _, _, _ := readCacheParts(root, rel)
	if cs.len() == 0 {
		return nil
	}
	interned := map[string]string{}
	m := map[string]*languages.Result{}
	cs.keys(func(k string) {
		if r := cs.lookup(k, interned, nil); r != nil {
			m[k] = r
		}
	})
	return m
}
