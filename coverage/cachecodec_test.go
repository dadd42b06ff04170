package coverage

import (
	"bytes"
	"context"
	"encoding/gob"
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
	got, err := decodeCache(encodeCache(entries))
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
	got, err := decodeCache(encodeCache(entries))
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
	b := encodeCache(map[string]*languages.Result{"k": &res})
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
	f.Add(encodeCache(map[string]*languages.Result{"k": &res, "n": nil}))
	f.Add([]byte("SNTC\x01\x01"))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := decodeCache(b)
		if err != nil {
			return
		}
		again, err := decodeCache(encodeCache(m))
		if err != nil || !reflect.DeepEqual(again, m) {
			t.Fatalf("a decoded cache does not survive a round trip: %v", err)
		}
	})
}
