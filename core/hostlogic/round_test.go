package hostlogic

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/kessho/kessho/core"
)

// separately is a round as a host without Round asks it, request by
// request (plugin-shim/src/host/call.ts's runRound): now, core.Core.Handle,
// read_answer, then the first step of answering a need read.
func separately(t *testing.T, now, head, rest string) (read, check, raw string) {
	t.Helper()
	var n struct{ Now string }
	if err := json.Unmarshal(Handle([]byte(`{"kind":"now","now":`+quote(now)+`}`)), &n); err != nil {
		t.Fatal(err)
	}
	raw = string(core.New().Handle([]byte(head + quote(n.Now) + rest)))
	answerJSON, _, _ := strings.Cut(raw, "\x00")
	read = string(Handle([]byte(`{"kind":"read_answer","answer":` + quote(answerJSON) + `}`)))
	var a struct {
		Invalid *string         `json:"invalid"`
		Need    json.RawMessage `json:"need"`
		Plan    json.RawMessage `json:"plan"`
	}
	if err := json.Unmarshal([]byte(read), &a); err != nil {
		t.Fatal(err)
	}
	switch {
	case a.Invalid != nil:
	case a.Need != nil:
		check = string(Step([]byte(`{"start":{"need":` + string(a.Need) + `,"journals":null,"wait_ms":0,"own":null},"now":"","wall":"","random":""}`)))
	}
	return read, check, raw
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestRoundIsTheFourRequestsOfARound(t *testing.T) {
	const ctx = "10-episodes/projects/alpha/context.md"
	text := "---\nphase: draft # kept\n---\n# Alpha\n"
	files := `"files":{` + quote(ctx) + `:{"sha256":"` + strings.Repeat("0", 64) + `","text":` + quote(text) + `}},` +
		`"missing":["10-episodes/archived/alpha/context.md","10-episodes/domains/alpha/context.md"],` +
		`"dirs":{"10-episodes/projects":["alpha/"],"10-episodes/domains":[],"10-episodes/archived":[]}`
	for _, c := range []struct{ name, now, head, rest, want string }{
		{"a need", "2026-11-30T10:15:00.123+00:00", `{"tool":"mem_update_phase","args":{"slug":"alpha","phase":"review"},"now":`, `,"tz":"Europe/Paris"}`, `"need"`},
		{"a plan", "2026-11-30T10:15:00+01:00", `{"tool":"mem_update_phase","args":{"slug":"alpha","phase":"review"},"now":`, `,"tz":"Europe/Paris",` + files + `}`, `"plan"`},
		{"a refusal", "2026-11-30T10:15:00Z", `{"tool":"mem_update_phase","args":{"phase":"review"},"now":`, `}`, `"ok":false`},
		{"a read only", "2026-11-30T10:15:00Z", `{"tool":"mem_read_context","args":{"slug":"alpha"},"now":`, `,` + files + `}`, `"ok":true`},
		{"not a request", "yesterday", `{"tool":`, `}`, `"ok":false`},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := Round([]byte(c.now+"\x00"+c.head+"\x00"+c.rest), core.New().HandleAnswer)
			if err != nil {
				t.Fatal(err)
			}
			parts := bytes.SplitN(out, []byte{0}, 3)
			if len(parts) != 3 {
				t.Fatalf("Round gave %d parts, want read, check, raw: %q", len(parts), out)
			}
			read, check, raw := separately(t, c.now, c.head, c.rest)
			// Round leaves out "printed" when it is the answer itself.
			var r map[string]any
			if err := json.Unmarshal(parts[0], &r); err != nil {
				t.Fatal(err)
			}
			_, printed := r["printed"]
			if wantPrinted := c.want == `"plan"`; r["ok"] != nil && printed != wantPrinted {
				t.Errorf("printed in Round's read: %v, want %v (it is left out when it is the answer itself)", printed, wantPrinted)
			}
			if !printed && r["ok"] != nil {
				answerJSON, _, _ := strings.Cut(raw, "\x00")
				r["printed"] = answerJSON
				b, _ := json.Marshal(r)
				parts[0] = b
			}
			if string(parts[0]) != read || string(parts[1]) != check || string(parts[2]) != raw {
				t.Errorf("Round differs from the four requests:\nread  %s\n      %s\ncheck %s\n      %s\nraw   %s\n      %s", parts[0], read, parts[1], check, parts[2], raw)
			}
			if !strings.Contains(read, c.want) {
				t.Errorf("the read %s lacks %s", read, c.want)
			}
			// A need's check comes with its round; a plan's is its apply's first step (Step).
			if c.want == `"need"` {
				if check == "" {
					t.Errorf("no check of the %s", c.want)
				}
			} else if check != "" {
				t.Errorf("a check of a final answer: %s", check)
			}
		})
	}
}

func TestRoundRefusesInputWithoutItsParts(t *testing.T) {
	for _, in := range []string{"", "2026-11-30T10:15:00Z", "2026-11-30T10:15:00Z\x00{\"tool\":"} {
		if out, err := Round([]byte(in), core.New().HandleAnswer); !errors.Is(err, ErrRoundInput) || out != nil {
			t.Errorf("Round(%q) = %q, %v; want nil, ErrRoundInput", in, out, err)
		}
	}
}
