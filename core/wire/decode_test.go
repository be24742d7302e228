package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// sameAsJSON fails t when DecodeRequest and encoding/json read b apart.
func sameAsJSON(t *testing.T, b []byte) {
	t.Helper()
	got, gotErr := DecodeRequest(b)
	var want Request
	text, index := Split(b) // a NUL ends the JSON: an index follows
	wantErr := json.Unmarshal(text, &want)
	if wantErr == nil && index != nil {
		if want.Search == nil {
			want.Search = &Carry{}
		}
		want.Search.Index = index
	}
	if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
		t.Fatalf("%q: error %v, encoding/json %v", b, gotErr, wantErr)
	}
	if got.Search != nil && got.Search.Sorted != nil {
		// Sorted is no JSON's: the notes' keys, when they came in order.
		if keys := slices.Sorted(maps.Keys(got.Search.Notes)); !slices.Equal(got.Search.Sorted, keys) {
			t.Fatalf("%q: sorted %q; the notes are %q", b, got.Search.Sorted, keys)
		}
		got.Search.Sorted = nil
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: read\n%#v\nencoding/json\n%#v", b, got, want)
	}
}

// randomRequests are requests as hosts write them, with texts full of what
// JSON escapes.
func randomRequests(rng *rand.Rand, n int) [][]byte {
	pieces := []string{"a", "é", "—", "<b>", "&", "\n", "\r\n", "\t", "\"", "\\", "/", "\u2028", "😀", "\x00", "\x1f", "\x7f", "\ufffd", "\xff", "\xed\xa0\x80", " ", "---", "# T"}
	str := func() string {
		var b strings.Builder
		for i := rng.Intn(8); i > 0; i-- {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		return b.String()
	}
	var out [][]byte
	for i := 0; i < n; i++ {
		req := Request{Tool: str(), Now: str(), TZ: str(), Lang: str()}
		if rng.Intn(2) == 0 {
			req.Args, _ = json.Marshal(map[string]any{"slug": str(), "n": rng.Intn(9), "l": []any{str(), nil, true, 1.5}, "o": map[string]string{str(): str()}})
		}
		if rng.Intn(3) > 0 {
			req.Files = map[string]File{}
			for j := rng.Intn(4); j > 0; j-- {
				f := File{SHA256: str(), NotUTF8: rng.Intn(4) == 0}
				if rng.Intn(4) > 0 {
					t := str()
					f.Text = &t
				}
				req.Files[str()] = f
			}
		}
		if rng.Intn(3) == 0 {
			req.Heads = map[string]Head{}
			for j := rng.Intn(3); j > 0; j-- {
				h := Head{NotUTF8: rng.Intn(4) == 0, Size: int64(rng.Intn(1 << 30))}
				if rng.Intn(4) > 0 {
					t := str()
					h.Text = &t
				}
				req.Heads[str()] = h
			}
		}
		if rng.Intn(2) == 0 {
			req.Missing = []string{str(), str()}
		}
		if rng.Intn(2) == 0 {
			req.Dirs = map[string][]string{str(): {str()}, str(): {}}
			req.Matches = map[string][]string{str(): {str(), str()}}
		}
		b, _ := json.Marshal(req)
		out = append(out, b)
	}
	return out
}

// TestDecodeRequestIsJSONs checks that the request scanner reads every
// request as encoding/json does, and fails every bad one alike: requests
// as hosts write them, indented, cut short, with a byte changed, and the
// shapes the scanner leaves to encoding/json.
func TestDecodeRequestIsJSONs(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	fast := 0
	reqs := randomRequests(rng, 3000)
	for _, b := range reqs {
		sameAsJSON(t, b)
		if _, ok := (&scanner{b: b}).request(); ok {
			fast++
		}
		var ind bytes.Buffer
		json.Indent(&ind, b, "", "  ")
		sameAsJSON(t, ind.Bytes())
		sameAsJSON(t, b[:rng.Intn(len(b))])
		m := bytes.Clone(b)
		const edits = `{}[]:,"\ 0anlu`
		m[rng.Intn(len(m))] = edits[rng.Intn(len(edits))]
		sameAsJSON(t, m)
	}
	if fast < len(reqs)/3 {
		t.Errorf("the scanner read %d of %d requests: it no longer serves", fast, len(reqs))
	}
	for _, s := range []string{
		`{}`, ` {"tool":"x"} `, `{"tool":"x"}x`, `{"Tool":"x"}`, `{"tool":"x","tool":"y"}`, `{"other":1,"tool":"x"}`,
		`{"files":{"a":{"sha256":"1","text":null}}}`, `{"files":{"a":{"sha256":"1","extra":2}}}`, `{"files":{"a":{},"a":{}}}`,
		`{"files":null}`, `{"missing":null}`, `{"missing":["a",null]}`, `{"dirs":{"a":null}}`,
		`{"args":null}`, `{"args":{"a":[1,{"b":"}"}]} }`, `{"args":5}`, `{"args":"x"}`, `{"args":{"a":1},"tool":"x"}`, `{"args":{"a":}}`,
		`{"tool":"\ud83d\ude00"}`, `{"tool":"\ud83d"}`, `{"tool":"\u00e9\u003c"}`, `{"tool":"\x"}`, `{"tool":"\u12"}`,
		`{"files":{"a":{"not_utf8":true,"sha256":"x"}}}`, `{"files":{"a":{"not_utf8":1}}}`, `{"tool":1}`, `[]`, ``, `{"tool":"x",}`,
		`{"search":{"listing":"l","id":"i","full":true,"notes":{"a.md":"1:2","b/c.md":"3:4"}}}`, `{"search":{}}`,
		`{"search":null}`, `{"search":{"notes":null}}`, `{"search":{"full":1}}`, `{"search":{"id":"a","id":"b"}}`,
		`{"search":{"notes":{"a":"1","a":"2"}}}`, `{"search":{"index":"AAEC"}}`, `{"search":{"other":1}}`,
		`{"search":{"batch":4096}}`, `{"search":{"unkept":".kessho/index"}}`, `{"search":{"unkept":1}}`, `{"search":{"batch":0}}`, `{"search":{"batch":-1}}`, `{"search":{"batch":01}}`, `{"search":{"batch":1e3}}`,
		`{"heads":{"a.md":{"text":"x","size":5}}}`, `{"heads":{"a.md":{"not_utf8":true,"size":0}}}`, `{"heads":{"a":{"size":-1}}}`,
		`{"heads":{"a":{"size":1,"size":2}}}`, `{"heads":{"a":{},"a":{}}}`, `{"heads":{"a":{"text":null,"size":1}}}`, `{"heads":null}`,
		`{"search":{"batch":1.5}}`, `{"search":{"batch":99999999999999999999}}`, `{"search":{"batch":"1"}}`,
		"{\"tool\":\"x\",\"search\":{\"listing\":\"l\"}}\x00KSHI\x00\x01", "{\"tool\":\"x\"}\x00\xff", "{\"tool\":\"x\"}\x00",
		"{\"tool\":\"x\x00\"}", "{\"tool\"\x00:1}",
	} {
		sameAsJSON(t, []byte(s))
	}
}

// FuzzDecodeRequest: any bytes read alike by the scanner and encoding/json.
func FuzzDecodeRequest(f *testing.F) {
	for _, b := range randomRequests(rand.New(rand.NewSource(1)), 20) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) { sameAsJSON(t, b) })
}

// TestValueIsValid checks that the scanner's walk of a value (raw's, one
// pass) accepts exactly what json.Valid accepts: values as hosts write
// them, cut short and with a byte changed, and the grammar's corners.
func TestValueIsValid(t *testing.T) {
	valid := func(b []byte) bool {
		s := &scanner{b: b}
		ok := s.value()
		s.ws()
		return ok && s.p == len(b)
	}
	check := func(b []byte) {
		t.Helper()
		if got, want := valid(b), json.Valid(b); got != want {
			t.Fatalf("%.300q: the scanner says %v, json.Valid %v", b, got, want)
		}
	}
	rng := rand.New(rand.NewSource(3))
	for _, b := range randomRequests(rng, 2000) {
		check(b)
		check(b[:rng.Intn(len(b))])
		m := bytes.Clone(b)
		const edits = "{}[]:,\"\\ 0-.eE+anlu\x01\x7f\xff"
		m[rng.Intn(len(m))] = edits[rng.Intn(len(edits))]
		check(m)
	}
	for _, s := range []string{
		``, ` `, `0`, `-0`, `01`, `-`, `1.`, `1.5`, `.5`, `1e`, `1e+`, `1E-7`, `1e5x`, `-01`, `2.e3`,
		`true`, `tru`, `truex`, `false`, `null`, `nul`, `"`, `"a`, `"\"`, `"\u12"`, `"\u12g4"`, `"\uD83D"`, `"\q"`, "\"\x1f\"", "\"\xff\"",
		`[]`, `[`, `[1,]`, `[,1]`, `[1 2]`, `{}`, `{`, `{"a"}`, `{"a":}`, `{"a":1,}`, `{1:2}`, `{"a":1 "b":2}`, `[[[]]]`, `[[]`, `{"a":[}`, `[}`, `{]`,
		` { "a" : [ 1 , { "b" : null } ] } `, `[1]]`, `{}{}`,
		strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth),
		strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1),
	} {
		check([]byte(s))
	}
}

// FuzzValue: any bytes walked as json.Valid checks them.
func FuzzValue(f *testing.F) {
	for _, s := range []string{`{"a":[1,-2.5e3,"\u00e9",true,null,{}]}`, `[`, `"\q"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s := &scanner{b: b}
		ok := s.value()
		s.ws()
		if got := ok && s.p == len(b); got != json.Valid(b) {
			t.Fatalf("%q: the scanner says %v", b, got)
		}
	})
}

// TestListingSorted: a listing whose paths come in byte order, as hosts
// write it, is read with them in that order (Carry.Sorted); one out of
// order, or one read by the general path (an escape), has none, and
// reads the same notes all the same.
func TestListingSorted(t *testing.T) {
	for _, c := range []struct {
		notes  string
		sorted []string
	}{
		{`{"a.md":"1:2","b/c.md":"3:4","b/d.md":"5:6"}`, []string{"a.md", "b/c.md", "b/d.md"}},
		{`{"b.md":"1:2","a.md":"3:4"}`, nil},
		{`{"a.md":"1:2","b\u00e9.md":"3:4"}`, nil},
		{`{"a.md":"1:2"}`, []string{"a.md"}},
	} {
		b := []byte(`{"tool":"mem_search","now":"x","search":{"full":true,"notes":` + c.notes + `}}`)
		sameAsJSON(t, b)
		req, err := DecodeRequest(b)
		if err != nil || req.Search == nil {
			t.Fatalf("%s: %v", c.notes, err)
		}
		if !slices.Equal(req.Search.Sorted, c.sorted) || (c.sorted == nil) != (req.Search.Sorted == nil) {
			t.Errorf("%s: sorted %q; want %q", c.notes, req.Search.Sorted, c.sorted)
		}
	}
}

// BenchmarkDecodeListing reads a first build's listing of 100,000 notes
// (Carry.Notes, in order, as hosts send it).
func BenchmarkDecodeListing(b *testing.B) {
	notes := map[string]string{}
	for i := range 100000 {
		notes[fmt.Sprintf("10-episodes/projects/deploy-webhook-%d/archives/2025-12-04-10h47-deploy-webhook-%d.md", i%300, i)] = fmt.Sprintf("%d:1764979200123456789", 1000+i)
	}
	data := EncodeCompacted(&Request{Tool: "mem_search", Now: "x", Search: &Carry{Listing: "l", Full: true}}, notes)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		req, err := DecodeRequest(data)
		if err != nil || len(req.Search.Sorted) != len(notes) {
			b.Fatalf("%v: %d sorted", err, len(req.Search.Sorted))
		}
	}
}
