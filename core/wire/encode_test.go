package wire

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// trickyStrings are strings whose JSON encoding/json writes with every
// escape it has: control characters (\b, \f and the \u00XX ones), quotes,
// backslashes, HTML's <, > and &, U+2028 and U+2029 (and the characters
// that share their first bytes), DEL, invalid UTF-8 (a stray byte, a cut
// character, an encoded surrogate), at the start, the middle and the end.
var trickyStrings = []string{
	"", "plain", "été ∑ 𝄞 — ok", "a\"b\\c", "<b> & </b>", "\x00\x01\x1f\x7f",
	"\b\f\n\r\t", "line\u2028sep\u2029end", "\u2028", "\u2029x", "x\u2027\u202a\u20ac",
	"\xe2", "\xe2\x80", "ab\xe2\x80\xa8", "bad \xff byte", "cut \xc3", "\xed\xa0\x80 surrogate",
	"\xe2\x80\xa8\xff", "'single' `back`", "#frontmatter: {x: [1, 2]}\n---\n",
}

// EncodeRequest is json.Marshal of a request, as a host writes it:
// CompactArgs, then EncodeCompacted.
func EncodeRequest(req *Request, notes map[string]string) ([]byte, error) {
	args, err := CompactArgs(req.Args)
	if err != nil {
		return nil, err
	}
	r := *req
	r.Args = args
	return EncodeCompacted(&r, notes), nil
}

// TestEncodeRequestIsJSONs: EncodeRequest writes the bytes json.Marshal
// writes for the same request, every field set or not, with strings of
// every kind in every place (and random ones), so that the core reads it
// as it read encoding/json's.
func TestEncodeRequestIsJSONs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	random := func() string {
		b := make([]byte, rng.IntN(40))
		for i := range b {
			switch rng.IntN(4) {
			case 0:
				b[i] = byte(rng.IntN(256))
			case 1:
				const special = "\"\\<>&\n\xe2\x80\xa8\xa9"
				b[i] = special[rng.IntN(len(special))]
			default:
				b[i] = byte('a' + rng.IntN(26))
			}
		}
		return string(b)
	}
	strs := slices.Clone(trickyStrings)
	for range 200 {
		strs = append(strs, random())
	}
	pick := func() string { return strs[rng.IntN(len(strs))] }
	var reqs []Request
	reqs = append(reqs, Request{}, Request{Tool: "mem_status", Now: "2026-12-01T10:00:00Z"})
	for i := range 300 {
		req := Request{Tool: pick(), Now: pick()}
		if i%2 == 0 {
			req.Args = json.RawMessage(`{ "text" : "` + "a <b> & \\u2028 \u2029" + `", "n": [1, 2 ,3] }`)
		}
		if i%3 == 0 {
			req.TZ, req.Lang = pick(), pick()
		}
		if i%4 != 3 {
			req.Files = map[string]File{}
			for range rng.IntN(20) {
				f := File{SHA256: pick()}
				switch rng.IntN(3) {
				case 0:
					s := pick() + pick() + pick()
					f.Text = &s
				case 1:
					f.NotUTF8 = true
				}
				req.Files[pick()] = f
			}
		}
		if i%5 == 0 {
			req.Missing = []string{pick(), pick()}
		}
		if i%4 == 1 {
			req.Heads = map[string]Head{}
			for range rng.IntN(5) {
				h := Head{Size: rng.Int64N(1 << 40)}
				switch rng.IntN(3) {
				case 0:
					s := pick() + pick()
					h.Text = &s
				case 1:
					h.NotUTF8 = true
				}
				req.Heads[pick()] = h
			}
		}
		if i%6 == 0 {
			req.Dirs = map[string][]string{pick(): {pick(), pick()}, pick(): {}, pick(): nil}
			req.Matches = map[string][]string{pick(): {pick()}}
		}
		if i%5 == 1 {
			req.RawDirs = map[string][]string{pick(): {pick(), pick()}}
			req.RawMatches = map[string][]string{pick(): {pick()}, pick(): {}}
		}
		if i%7 < 3 {
			req.Search = &Carry{Listing: pick(), ID: pick(), Full: i%2 == 0, Batch: int64(i % 3 * 1000), Segments: i%3 == 1, Since: pick(), Hand: i%4 == 2, Paced: i%5 == 3}
			if i%3 == 0 {
				req.Search.Unkept = pick()
				req.Search.Changes = map[string]string{pick(): pick(), pick(): ""}
			}
			if i%7 == 0 {
				req.Search.Listing, req.Search.ID = "", ""
			}
		}
		reqs = append(reqs, req)
	}
	for i, req := range reqs {
		notes := map[string]string(nil)
		if req.Search != nil && i%2 == 0 {
			notes = map[string]string{"a.md": "1:2", "b <&>.md": "3:4"}
			for range rng.IntN(10) {
				notes[pick()] = pick()
			}
		}
		withNotes := req
		if req.Search != nil {
			c := *req.Search
			c.Notes = notes
			withNotes.Search = &c
		}
		want, err := json.Marshal(withNotes)
		if err != nil {
			t.Fatal(err)
		}
		got, err := EncodeRequest(&req, notes)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Fatalf("request %d:\n%q\nencoding/json:\n%q", i, got, want)
		}
		// The one codec reads back what it wrote, as encoding/json does.
		var std Request
		stdErr := json.Unmarshal(want, &std)
		if back, err := DecodeRequest(got); fmt.Sprint(err) != fmt.Sprint(stdErr) || !reflect.DeepEqual(back, std) {
			t.Fatalf("request %d read back as\n%#v (%v)\nencoding/json:\n%#v (%v)", i, back, err, std, stdErr)
		}
	}
	for _, s := range strs {
		want, _ := json.Marshal(s)
		if got := appendString(nil, s); string(got) != string(want) {
			t.Errorf("appendString(%q) = %s; encoding/json: %s", s, got, want)
		}
	}
	// Arguments that are no JSON are refused, as json.Marshal refuses them.
	if _, err := EncodeRequest(&Request{Args: json.RawMessage(`{"x":`)}, nil); err == nil {
		t.Error("EncodeRequest of invalid arguments: no error")
	}
}

// TestRequestFields: the types EncodeRequest writes by hand have the
// fields it writes, in its order, with its JSON names and options; a
// field added to one of them must be written there too.
func TestRequestFields(t *testing.T) {
	for _, c := range []struct {
		v    any
		want []string
	}{
		{Request{}, []string{"Tool tool", "Args args,omitempty", "Now now", "TZ tz,omitempty", "Lang lang,omitempty", "Snapshot ", "Search search,omitempty"}},
		{Snapshot{}, []string{"Files files,omitempty", "Heads heads,omitempty", "Missing missing,omitempty", "Dirs dirs,omitempty", "Matches matches,omitempty", "RawDirs raw_dirs,omitempty", "RawMatches raw_matches,omitempty"}},
		{File{}, []string{"SHA256 sha256", "Text text,omitempty", "NotUTF8 not_utf8,omitempty"}},
		{Head{}, []string{"Text text,omitempty", "NotUTF8 not_utf8,omitempty", "Size size"}},
		{Carry{}, []string{"Listing listing,omitempty", "ID id,omitempty", "Full full,omitempty", "Notes notes,omitempty", "Sorted -", "Batch batch,omitempty", "Unkept unkept,omitempty", "Segments segments,omitempty", "Since since,omitempty", "Changes changes,omitempty", "Hand hand,omitempty", "Paced paced,omitempty", "Keep keep,omitempty", "Indexed indexed,omitempty", "Left left,omitempty", "Index -"}},
	} {
		typ := reflect.TypeOf(c.v)
		var got []string
		for i := range typ.NumField() {
			f := typ.Field(i)
			got = append(got, f.Name+" "+f.Tag.Get("json"))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s's fields are %q; EncodeRequest writes %q: update it (and this test)", typ, got, c.want)
		}
	}
}

// BenchmarkEncodeRequest writes a request holding one batch of a first
// index build (2,500 notes of 1.6 KB, a newline every 40 bytes or so as
// in the bench vaults, accents, a few quotes and a tab),
// by json.Marshal and by EncodeRequest.
func BenchmarkEncodeRequest(b *testing.B) {
	req := Request{Tool: "mem_search", Args: json.RawMessage(`{"query":"x"}`), Now: "2026-12-01T10:00:00Z",
		Snapshot: Snapshot{Files: map[string]File{}}, Search: &Carry{Listing: "abc", ID: "0123-45"}}
	size := 0
	for i := range 2500 {
		text := fmt.Sprintf("---\nsubject: note %d\naliases:\n  - \"un été\"\n---\n", i) + strings.Repeat("Archive recipe kitchen alert atom client\nqueue été stemmer \"client\" budget\n\thiring calendar worklog stemmer.\n", 16)
		req.Files[fmt.Sprintf("10-episodes/projects/p%02d/archives/2026-01-%02d-n%05d.md", i%50, 1+i%28, i)] = FileOf(text)
		size += len(text)
	}
	b.Run("json", func(b *testing.B) {
		b.SetBytes(int64(size))
		for b.Loop() {
			if _, err := json.Marshal(req); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("hand", func(b *testing.B) {
		b.SetBytes(int64(size))
		for b.Loop() {
			if _, err := EncodeRequest(&req, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}
