package wire

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"reflect"
	"testing"

	"github.com/kessho/kessho/core/plan"
)

// TestEncodeAnswerIsJSONs checks that EncodeAnswer writes what
// json.Marshal writes, for every kind of answer.
func TestEncodeAnswerIsJSONs(t *testing.T) {
	yes, no := true, false
	text := "a <b> & \"c\" \u2028 é\n"
	result, _ := json.Marshal(map[string]any{"slug": text, "n": 1, "l": []string{text}})
	p := plan.Plan{{Op: plan.Write, Path: "a/b.md", Text: &text, Expect: plan.Absent}}
	for _, ans := range []Answer{
		{OK: &yes},
		{OK: &yes, Result: result},
		{OK: &yes, Result: result, Plan: p},
		{OK: &yes, Result: result, Plan: p, Conflict: "CONTEXT_HYGIENE_RACE"},
		{OK: &yes, Plan: p, Conflict: "<&>"},
		{OK: &yes, Result: result, Plan: p, Confirm: "Delete " + text + "?"},
		{OK: &yes, Result: result, Plan: p, Conflict: "X", Confirm: "Q?"},
		{OK: &no, Error: &ErrorBody{Code: "X", Message: text, Details: map[string]any{"a": text}}},
		{Need: &Need{Files: []string{text}}},
		{OK: &yes, Result: result, Search: &Carry{Index: []byte{0, 1, 255}, ID: "i"}},
	} {
		got, err := EncodeAnswer(ans)
		want, wantErr := json.Marshal(ans)
		if err != nil || wantErr != nil || !bytes.Equal(got, want) {
			t.Errorf("EncodeAnswer: %s, %v\njson.Marshal: %s, %v", got, err, want, wantErr)
		}
	}
}

// readAsJSON is what hostlogic.ReadAnswer read of b before DecodeSuccess:
// json.Unmarshal of the answer, and of its result for the warnings.
func readAsJSON(b []byte) (Answer, []string, error) {
	var ans Answer
	if err := json.Unmarshal(b, &ans); err != nil {
		return ans, nil, err
	}
	var r struct {
		Warnings []string `json:"warnings"`
	}
	if json.Unmarshal(ans.Result, &r) != nil {
		r.Warnings = nil
	}
	return ans, r.Warnings, nil
}

// sameSuccess fails t when DecodeSuccess reads b otherwise than
// encoding/json, or calls a result compact that json.Marshal changes.
func sameSuccess(t *testing.T, b []byte) bool {
	t.Helper()
	got, ok := DecodeSuccess(b)
	if !ok {
		return false
	}
	want, warnings, err := readAsJSON(b)
	if err != nil || want.OK == nil || !*want.OK || want.Need != nil || want.Error != nil {
		t.Fatalf("%s: DecodeSuccess read %#v, encoding/json %#v, %v", b, got, want, err)
	}
	if !reflect.DeepEqual(got.Answer, want) || !reflect.DeepEqual(got.Warnings, warnings) {
		t.Fatalf("%s: DecodeSuccess read\n%#v %q\nencoding/json\n%#v %q", b, got.Answer, got.Warnings, want, warnings)
	}
	if len(got.Result) > 0 {
		again, _ := json.Marshal(got.Result)
		if compact := bytes.Equal(again, got.Result); got.Compact && !compact {
			t.Fatalf("%s: Compact, but json.Marshal gives %s", b, again)
		}
	}
	return true
}

// TestDecodeSuccessIsJSONs checks DecodeSuccess against encoding/json on
// successes as the core writes them, indented, cut short, with a byte
// changed, and the shapes it leaves to encoding/json.
func TestDecodeSuccessIsJSONs(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	yes := true
	fast := 0
	for _, req := range randomRequests(rng, 1500) {
		var r Request
		if json.Unmarshal(req, &r) != nil {
			continue
		}
		res := map[string]any{"summary_md": r.Tool, "warnings": r.Missing, "files": r.Files, "n": len(req)}
		if rng.Intn(3) == 0 {
			delete(res, "warnings")
		}
		result, _ := json.Marshal(res)
		ans := Answer{OK: &yes, Result: result}
		if rng.Intn(2) == 0 {
			ans.Plan = plan.Plan{plan.WriteOp(r.Now, "absent", r.TZ)}
			ans.Conflict = r.Lang
		}
		if rng.Intn(4) == 0 {
			ans.Search = &Carry{ID: r.Tool, Listing: r.Lang}
		}
		b, _ := EncodeAnswer(ans)
		if sameSuccess(t, b) {
			fast++
			if got, _ := DecodeSuccess(b); !got.Compact {
				t.Fatalf("%s: the core's result is not Compact", b)
			}
		}
		var ind bytes.Buffer
		json.Indent(&ind, b, "", " ")
		sameSuccess(t, ind.Bytes())
		sameSuccess(t, b[:rng.Intn(len(b))])
		m := bytes.Clone(b)
		const edits = `{}[]:,"\ 0anlu<`
		m[rng.Intn(len(m))] = edits[rng.Intn(len(edits))]
		sameSuccess(t, m)
	}
	if fast < 700 {
		t.Errorf("DecodeSuccess read %d of 1500 successes: it no longer serves", fast)
	}
	for _, s := range []string{
		`{"ok":true}`, `{"ok":true,"result":{}}`, `{"ok":true,"result":[1]}`, `{"ok":true,"result":"<"}`, `{"ok":true,"result":null}`,
		`{"ok":true,"result":{"warnings":null}}`, `{"ok":true,"result":{"Warnings":["a"]}}`, `{"ok":true,"result":{"warnings":["a"],"warnings":["b"]}}`,
		`{"ok":true,"result":{"warnings":[1]}}`, `{"ok":true,"result":{"warnings":"a"}}`, `{"ok":true,"result":{"a<":1}}`, `{"ok":true,"result":{"a":"\u003c"}}`,
		`{"ok":true,"result":{"warnings":["<"]}}`, `{"ok":true,"result":{"warnings":["\u003c"]}}`, `{"ok":true,"result":{"a":"` + "\u2028" + `"}}`,
		`{"ok":true,"result":{"a":1} }`, `{"ok":true,"result":{"a": 1}}`, `{"ok":false,"error":{}}`, `{"OK":true}`, `{"ok":true,"ok":true}`,
		`{"ok":true,"plan":null}`, `{"ok":true,"plan":[{"op":1}]}`, `{"ok":true,"need":{}}`, `{"result":{}}`, `{"ok":true,"conflict":null}`,
		`{"ok":true,"search":{"id":"x","index":"AA"}}`, `{"ok":true,"search":null}`, `{"ok":true}x`,
		`{"ok":true,"confirm":"Q?"}`, `{"ok":true,"confirm":null}`, `{"ok":true,"confirm":"a","confirm":"b"}`, `{"ok":true,"confirm":1}`,
	} {
		sameSuccess(t, []byte(s))
	}
}

// FuzzDecodeSuccess: any bytes DecodeSuccess reads, it reads as
// encoding/json does.
func FuzzDecodeSuccess(f *testing.F) {
	for _, s := range []string{`{"ok":true,"result":{"warnings":["a"],"b":[1,{"c":null}]},"plan":[],"conflict":"X"}`, `{"ok":true}`,
		`{"ok":true,"result":{},"plan":[],"confirm":"Q?"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { sameSuccess(t, b) })
}
