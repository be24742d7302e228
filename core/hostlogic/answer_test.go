package hostlogic

import (
	"encoding/json"
	"testing"
)

// ask runs one host request through Handle, as the plugin does.
func ask(t *testing.T, req map[string]any) string {
	t.Helper()
	b, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	return string(Handle(b))
}

func TestReadAnswer(t *testing.T) {
	for _, c := range []struct{ name, raw, want string }{
		{"a need", `{"need":{"dirs":["a"]}}`, `{"need":{"dirs":["a"]}}`},
		{"a result copied as written", `{"ok":true,"result":{"b":"\u003c","a":1.50}}`,
			`{"ok":true,"printed":"{\"ok\":true,\"result\":{\"b\":\"\\u003c\",\"a\":1.50}}"}`},
		{"a plan and its conflict code", `{"ok":true,"result":1,"plan":[{"op":"check","path":"a.md","expect":"absent"}],"conflict":"X"}`,
			`{"conflict":"X","ok":true,"plan":[{"op":"check","path":"a.md","expect":"absent"}],"printed":"{\"ok\":true,\"result\":1}"}`},
		{"a refusal copied as written", `{"ok":false,"error":{"code":"X","message":"m","details":{}}}`,
			`{"ok":false,"printed":"{\"ok\":false,\"error\":{\"code\":\"X\",\"message\":\"m\",\"details\":{}}}"}`},
		{"a batch of the search index", `{"need":{"files":["a.md"],"search":"batch"},"search":{"id":"i-1"}}`,
			`{"need":{"files":["a.md"],"search":"batch"},"search":{"id":"i-1"}}`},
		{"a search index beside a result, left out of raw", `{"ok":true,"result":{"a":1.50},"search":{"id":"i-1"}}`,
			`{"ok":true,"printed":"{\"ok\":true,\"result\":{\"a\":1.50}}","raw":"{\"ok\":true,\"result\":{\"a\":1.50}}","search":{"id":"i-1"}}`},
		{"not JSON", `{"ok":`, `{"invalid":"the engine answered invalid JSON: unexpected end of JSON input"}`},
		{"neither need nor ok", `{"result":1}`, `{"invalid":"the engine's answer has neither need nor ok"}`},
		{"a refusal without a body", `{"ok":false,"error":"x"}`,
			`{"invalid":"the engine's refusal is no error body: json: cannot unmarshal string into Go value of type wire.ErrorBody"}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := ask(t, map[string]any{"kind": "read_answer", "answer": c.raw}); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

func TestRenderInternalAndConflict(t *testing.T) {
	conflict := map[string]any{"code": "CONFLICT", "en": "a.md changed", "fr": "a.md a changé", "details": map[string]any{"path": "a.md"}}
	for _, c := range []struct {
		name string
		req  map[string]any
		want string
	}{
		{"anything thrown is INTERNAL", map[string]any{"internal": "writing x: disk full", "lang": "fr"},
			`{"ok":false,"error":{"code":"INTERNAL","message":"erreur interne : writing x: disk full","details":{}}}`},
		{"a CONFLICT under the answer's code", map[string]any{"error": conflict, "conflict": "CONTEXT_HYGIENE_RACE", "lang": "en"},
			`{"ok":false,"error":{"code":"CONTEXT_HYGIENE_RACE","message":"a.md changed","details":{"path":"a.md"}}}`},
		{"a CONFLICT without one", map[string]any{"error": conflict, "lang": "fr"},
			`{"ok":false,"error":{"code":"CONFLICT","message":"a.md a changé","details":{"path":"a.md"}}}`},
		{"another code keeps its own", map[string]any{"internal": "boom", "conflict": "CONTEXT_HYGIENE_RACE"},
			`{"ok":false,"error":{"code":"INTERNAL","message":"internal error: boom","details":{}}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.req["kind"] = "render"
			if got := ask(t, c.req); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
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
		if got := ask(t, map[string]any{"kind": "now", "now": in}); got != `{"now":"`+want+`"}` {
			t.Errorf("now %q: got %s, want %s", in, got, want)
		}
	}
}
