package hostlogic

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/kessho/kessho/core/wire"
)

// call runs a call of tool t over d whose rounds the core answers with
// answers, in order, and returns its end.
func call(t *testing.T, d *memPort, answers ...string) wire.StepEnd {
	t.Helper()
	d.answers = answers
	end, _ := d.steps(t, callStart(), t0)
	return end
}

func TestACallReadsEachAnswerOnce(t *testing.T) {
	for _, c := range []struct {
		name, raw         string
		ok                bool
		printed, answer   string
		invalid, ops, idx string
	}{
		{name: "a result printed as written", raw: `{"ok":true,"result":{"b":"\u003c","a":1.50}}`, ok: true,
			printed: `{"ok":true,"result":{"b":"\u003c","a":1.50}}`},
		{name: "a plan applied (its check first), the answer printed without it", raw: `{"ok":true,"result":1,"plan":[{"op":"check","path":"a.md","expect":"absent"}],"conflict":"X"}`,
			ok: true, printed: `{"ok":true,"result":1}`, ops: "look a.md"},
		{name: "a refusal printed as written", raw: `{"ok":false,"error":{"code":"X","message":"m","details":{}}}`,
			answer: `{"ok":false,"error":{"code":"X","message":"m","details":{}}}`},
		{name: "a search index beside a result: kept, and left out of what is printed", raw: "{\"ok\":true,\"result\":{\"a\":1.50},\"search\":{\"id\":\"i-1\"}}\x00IDX",
			ok: true, printed: `{"ok":true,"result":{"a":1.50}}`, ops: "index_store ", idx: "IDX"},
		{name: "an invalid plan: INTERNAL, nothing written", raw: `{"ok":true,"result":{"x":1},"plan":[{"op":"write","path":"../evil.md","expect":"absent","text":"x"}]}`,
			answer: `{"ok":false,"error":{"code":"INTERNAL","message":"internal error: the module returned an invalid plan: plan op 0 (write): path \"../evil.md\" is not clean","details":{}}}`},
		{name: "not JSON", raw: `{"ok":`, invalid: "call t: the engine answered invalid JSON: unexpected end of JSON input"},
		{name: "neither need nor ok", raw: `{"result":1}`, invalid: "call t: the engine's answer has neither need nor ok"},
		{name: "a refusal without a body", raw: `{"ok":false,"error":"x"}`,
			invalid: "call t: the engine's refusal is no error body: json: cannot unmarshal string into Go value of type wire.ErrorBody"},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := newMemPort(nil)
			end := call(t, d, c.raw)
			first := ""
			if len(d.ops) > 0 {
				first = d.ops[0]
			}
			if end.OK != c.ok || end.Answer != c.answer || end.Invalid != c.invalid || first != c.ops {
				t.Fatalf("end %+v after ops %q; want ok %v, answer %q, invalid %q after %q", end, d.ops, c.ok, c.answer, c.invalid, c.ops)
			}
			if c.ok && (d.printed != c.printed || d.index != c.idx) {
				t.Fatalf("handed back %q and index %q; want %q and %q", d.printed, d.index, c.printed, c.idx)
			}
			// One round, its time made canonical as the Go host writes --now.
			if len(d.requests) != 1 || d.requests[0] != `{"tool":"t","now":"2026-11-30T10:15:00+01:00"}` {
				t.Fatalf("requests %q", d.requests)
			}
		})
	}
}

func TestACallRendersItsRefusals(t *testing.T) {
	changed := `{"ok":true,"result":1,"plan":[{"op":"write","path":"a.md","expect":"sha256:` + strings.Repeat("0", 64) + `","text":"B"}]`
	for _, c := range []struct {
		name, lang, conflict, want string
	}{
		{"a CONFLICT under the answer's code", "en", `,"conflict":"CONTEXT_HYGIENE_RACE"`,
			`{"ok":false,"error":{"code":"CONTEXT_HYGIENE_RACE","message":"a.md changed since Kessho read it (another program or person wrote it); nothing was written, run the call again","details":{"path":"a.md"}}}`},
		{"a CONFLICT without one, in French", "fr", "",
			`{"ok":false,"error":{"code":"CONFLICT","message":"a.md a changé depuis que Kessho l'a lu (un autre programme ou une autre personne l'a écrit) ; rien n'a été écrit, relancez l'appel","details":{"path":"a.md"}}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := newMemPort(map[string]string{"a.md": "A"})
			d.answers = []string{changed + c.conflict + "}"}
			start := callStart()
			start.Lang = c.lang
			end, _ := d.steps(t, start, t0)
			if end.Answer != c.want || d.files["a.md"] == nil || string(d.files["a.md"]) != "A" {
				t.Fatalf("end %+v, a.md %q\nwant %s", end, d.files["a.md"], c.want)
			}
		})
	}
}

func TestACallRefusesPastItsRounds(t *testing.T) {
	d := newMemPort(map[string]string{"a.md": "A"})
	reader(d)
	need := needAnswer(t, wire.Need{Files: []string{"a.md"}})
	start := callStart()
	start.Call.MaxRounds = 3
	d.answers = []string{need, need, need, need}
	end, _ := d.steps(t, start, t0)
	e := printedError(t, end.Answer)
	if e.Code != "LIMIT_EXCEEDED" || len(d.requests) != 3 || e.Details["rounds"] != 3.0 {
		t.Fatalf("end %+v after %d rounds; want LIMIT_EXCEEDED after 3", end, len(d.requests))
	}
}

func TestACallsStateHoldsOneRound(t *testing.T) {
	// A first build in batches: each batch stored, the snapshot emptied,
	// and the state that crosses never holds the batches before.
	d := newMemPort(map[string]string{"a.md": "A", "b.md": "B", "c.md": "C"})
	reader(d)
	var answers []string
	for _, p := range []string{"a.md", "b.md", "c.md"} {
		n, _ := json.Marshal(wire.Answer{Need: &wire.Need{Files: []string{p}, Search: "batch"}, Search: &wire.Carry{ID: "id-" + p}})
		answers = append(answers, string(n)+"\x00"+p)
	}
	end := call(t, d, append(answers, `{"ok":true,"result":2}`)...)
	if !end.OK || d.printed != `{"ok":true,"result":2}` {
		t.Fatalf("end %+v, printed %q", end, d.printed)
	}
	want := "index_store ,snapshot_reset ,need_file a.md,round,index_store ,snapshot_reset ,need_file b.md,round,index_store ,snapshot_reset ,need_file c.md,round"
	if got := strings.Join(d.ops, ","); got != want {
		t.Fatalf("ops %s\nwant %s", got, want)
	}
	for i, s := range d.states {
		var st stepState
		if err := json.Unmarshal([]byte(s), &st); err != nil || st.Mark == nil || st.Mark.Read.Need == nil || len(st.Results) > 3 {
			t.Fatalf("state %d: %s; want the last round's reading and the I/O after it alone, past the recovery", i, s)
		}
	}
}

func TestACallRollsJournalsForwardBeforeItsFirstRound(t *testing.T) {
	// A progress file whose journal is gone: removed before the round,
	// which the host sends only when asked.
	d := newMemPort(map[string]string{JournalDir + "/x.done": "1\n"})
	start := callStart()
	start.Journals = []string{"x.done"}
	d.answers = []string{`{"ok":true,"result":1}`}
	end, _ := d.steps(t, start, t0)
	if got := strings.Join(d.ops, ","); !end.OK || len(d.requests) != 1 || got != "state_remove "+JournalDir+"/x.done,round" || d.files[JournalDir+"/x.done"] != nil {
		t.Fatalf("end %+v after ops %v; want the progress file removed, then the round", end, d.ops)
	}
}

func TestCanonicalNow(t *testing.T) {
	for in, want := range map[string]string{
		"2026-11-30T10:15:00+01:00":        "2026-11-30T10:15:00+01:00",
		"2026-11-30T09:15:00.456Z":         "2026-11-30T09:15:00Z",
		"2026-11-30T09:15:00+00:00":        "2026-11-30T09:15:00Z",
		"2026-11-30T09:15:00.5-00:00":      "2026-11-30T09:15:00Z",
		"2026-11-30T10:15:00.123456+01:00": "2026-11-30T10:15:00+01:00",
		"yesterday":                        "yesterday",
	} {
		if got := CanonicalNow(in); got != want {
			t.Errorf("now %q: got %s, want %s", in, got, want)
		}
	}
}

func TestARoundsInputHasItsParts(t *testing.T) {
	for _, in := range []string{"", "2026-11-30T10:15:00Z", "2026-11-30T10:15:00Z\x00{\"tool\":\"t\",\"now\":"} {
		if req, err := roundRequest([]byte(in)); err != ErrRoundInput || req != nil {
			t.Errorf("roundRequest(%q) = %q, %v; want nil, ErrRoundInput", in, req, err)
		}
	}
}
