package frontmatter

import (
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// The fuzz targets check SPEC section 2's property independently of the
// package's own read-back check: for any file and any edit that succeeds,
// the result parses, its keys are the original's (plus or minus the edited
// one, in order), every other key reads back unchanged, the edited key reads
// back as exactly what was set, the body and BOM are byte-identical, and no
// byte outside the edited key's span (or the insertion point of a new key)
// changed.
//
// Seeds live in testdata/fuzz/FuzzSet and testdata/fuzz/FuzzRemove, so a
// plain `go test` runs them.

// edit is one fuzzed operation: kind picks Set with a string, a []string, a
// bool, an int, a float64, nil or a map, or Append.
type edit struct {
	kind  byte
	key   string
	value any      // for Set
	items []string // for Append
}

func makeEdit(key, value string, kind byte) edit {
	e := edit{kind: kind % 8, key: key}
	split := func() []string {
		if value == "" {
			return []string{}
		}
		return strings.Split(value, ",")
	}
	switch e.kind {
	case 0:
		e.value = value
	case 1:
		e.value = split()
	case 2:
		e.value = len(value)%2 == 0
	case 3:
		n, err := strconv.Atoi(value)
		if err != nil {
			n = len(value) - 3
		}
		e.value = n
	case 4:
		f, err := strconv.ParseFloat(value, 64)
		if err != nil {
			f = float64(len(value)) / 4
		}
		e.value = f
	case 5:
		e.value = nil
	case 6:
		e.value = map[string]any{"k": value, "list": []any{value, 1}}
	case 7:
		e.items = split()
	}
	return e
}

func (e edit) apply(text string) (string, error) {
	if e.kind == 7 {
		return Append(text, e.key, e.items...)
	}
	return Set(text, e.key, e.value)
}

// want is what the edited key must read back as.
func (e edit) want(before *Doc) any {
	switch v := e.value.(type) {
	case []string:
		out := []any{}
		for _, s := range v {
			out = append(out, s)
		}
		return out
	case map[string]any:
		b, _ := yaml.Marshal(v)
		var back any
		_ = yaml.Unmarshal(b, &back)
		return normalize(back)
	}
	if e.kind != 7 {
		return e.value
	}
	out := []any{}
	if old, ok := before.Lookup(e.key); ok {
		list, _ := old.([]any)
		out = append(out, list...)
	}
	for _, s := range dedupeAgainst(before, e) {
		out = append(out, s)
	}
	return out
}

func FuzzSet(f *testing.F) {
	f.Fuzz(checkEdit)
}

// checkEdit is FuzzSet's property for one edit.
func checkEdit(t *testing.T, text, key, value string, kind byte) {
	t.Helper()
	// Invalid UTF-8 in a key or value is refused up front; fuzz the rest.
	key, value = strings.ToValidUTF8(key, "?"), strings.ToValidUTF8(value, "?")
	e := makeEdit(key, value, kind)
	before, perr := Parse(text)
	out, err := e.apply(text)
	if perr != nil {
		if err == nil {
			t.Fatalf("edit of invalid frontmatter (%v) succeeded", perr)
		}
		return
	}
	if err != nil {
		return // a refusal writes nothing; the property is about successes
	}
	if e.kind == 7 && len(dedupeAgainst(before, e)) == 0 {
		if out != text {
			t.Fatalf("append of nothing new changed the text:\n%q\n%q", text, out)
		}
		return
	}
	after := checkCommon(t, text, out, before)
	want := e.want(before)
	keys := before.Keys()
	lo, hi := editedSpan(before, e.key, false)
	if before.find(e.key) == nil {
		keys = append(keys, e.key)
	}
	checkKeys(t, before, after, keys, e.key)
	if got, _ := after.Lookup(e.key); !equalValues(got, want) {
		t.Fatalf("%q reads back %#v, want %#v\nbefore %q\nafter  %q", e.key, got, want, text, out)
	}
	checkLocal(t, text, out, lo, hi)
}

func FuzzRemove(f *testing.F) {
	f.Fuzz(checkRemove)
}

// checkRemove is FuzzRemove's property for one key.
func checkRemove(t *testing.T, text, key string) {
	t.Helper()
	before, perr := Parse(text)
	out, err := Remove(text, key)
	if perr != nil {
		if err == nil {
			t.Fatalf("remove from invalid frontmatter (%v) succeeded", perr)
		}
		return
	}
	if err != nil {
		return
	}
	if before.find(key) == nil {
		if out != text {
			t.Fatalf("remove of an absent key changed the text")
		}
		return
	}
	after := checkCommon(t, text, out, before)
	keys := keysWithout(before.Keys(), key)
	checkKeys(t, before, after, keys, key)
	if _, ok := after.Lookup(key); ok {
		t.Fatalf("%q still there after Remove", key)
	}
	lo, hi := editedSpan(before, key, true)
	checkLocal(t, text, out, lo, hi)
}

// dedupeAgainst is what Append really adds.
func dedupeAgainst(before *Doc, e edit) []string {
	var present []string
	if e := before.find(e.key); e != nil {
		for _, it := range resolve(e.val).Content {
			if s, ok := scalarText(it); ok {
				present = append(present, s)
			}
		}
	}
	return dedupe(present, e.items)
}

func checkCommon(t *testing.T, text, out string, before *Doc) *Doc {
	t.Helper()
	after, err := Parse(out)
	if err != nil {
		t.Fatalf("result does not parse: %v\nbefore %q\nafter  %q", err, text, out)
	}
	if after.Body() != before.Body() {
		t.Fatalf("body changed:\nbefore %q\nafter  %q", before.Body(), after.Body())
	}
	if strings.HasPrefix(text, bom) != strings.HasPrefix(out, bom) {
		t.Fatalf("BOM changed")
	}
	// A file whose lines all end in a lone "\r" gets "\r" endings only.
	if strings.Contains(text, "\r") && !strings.Contains(text, "\n") && strings.Contains(out, "\n") {
		t.Fatalf("an edit wrote \"\\n\" in a file whose lines end in \"\\r\":\nbefore %q\nafter  %q", text, out)
	}
	return after
}

func checkKeys(t *testing.T, before, after *Doc, keys []string, edited string) {
	t.Helper()
	if got := after.Keys(); !reflect.DeepEqual(got, keys) && !(len(got) == 0 && len(keys) == 0) {
		t.Fatalf("keys = %q, want %q\nbefore %q\nafter  %q", got, keys, before.text, after.text)
	}
	for _, k := range keys {
		if k == edited {
			continue
		}
		a, _ := before.Lookup(k)
		b, _ := after.Lookup(k)
		if !equalValues(a, b) {
			t.Fatalf("%q changed from %#v to %#v\nbefore %q\nafter  %q", k, a, b, before.text, after.text)
		}
	}
}

// editedSpan is the part of the original text an edit of key may change:
// from the key's colon (its line, for Remove) to the end of its lines; for a
// new key, the point before the closing delimiter (or after the BOM).
func editedSpan(d *Doc, key string, remove bool) (lo, hi int) {
	if e := d.find(key); e != nil {
		if remove {
			return e.lineStart, e.end
		}
		return e.colonEnd, e.end
	}
	if d.has {
		return d.contentEnd, d.contentEnd
	}
	return d.bomLen, d.bomLen
}

func checkLocal(t *testing.T, text, out string, lo, hi int) {
	t.Helper()
	if len(out) < lo+len(text)-hi || out[:lo] != text[:lo] || out[len(out)-(len(text)-hi):] != text[hi:] {
		t.Fatalf("bytes outside [%d,%d) changed:\nbefore %q\nafter  %q", lo, hi, text, out)
	}
}

// equalValues is reflect.DeepEqual where NaN equals NaN.
func equalValues(a, b any) bool {
	if x, ok := a.(float64); ok {
		y, ok := b.(float64)
		return ok && (x == y || math.IsNaN(x) && math.IsNaN(y))
	}
	switch x := a.(type) {
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalValues(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k := range x {
			if !equalValues(x[k], y[k]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}
