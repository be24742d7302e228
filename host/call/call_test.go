package call_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/kessho/kessho/core"
	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/engine"
)

// scripted answers each round with the next of its answers.
type scripted struct{ answers []string }

func (s *scripted) Call(ctx context.Context, req []byte) ([]byte, error) {
	a := s.answers[0]
	s.answers = s.answers[1:]
	return []byte(a), nil
}

// TestConflictFromAnswer: a plan whose precondition no longer holds is
// refused with the code the core named beside the plan, whatever the tool,
// and with CONFLICT when it named none; the message and details are the
// host's either way, and nothing is written.
func TestConflictFromAnswer(t *testing.T) {
	stale := `{"ok":true,"result":{"summary_md":"s"},"plan":[{"op":"write","path":"a.md","expect":"absent","text":"new"}]`
	for _, c := range []struct{ conflict, want string }{
		{`,"conflict":"SOME_RACE"`, "SOME_RACE"},
		{``, "CONFLICT"},
	} {
		files := map[string]string{"a.md": "old"}
		dir, v := newVault(t, files)
		eng := &scripted{answers: []string{stale + c.conflict + "}"}}
		out, err := call.Run(context.Background(), v, eng, "mem_update_phase", json.RawMessage(`{}`), call.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if out.OK || out.Error == nil || out.Error.Code != c.want || answerOf(t, out) != c.want {
			t.Errorf("conflict %q: answer %s, error %+v; want %s", c.conflict, out.Answer, out.Error, c.want)
		}
		if out.Error != nil && out.Error.Details["path"] != "a.md" {
			t.Errorf("conflict %q: details %v; want the path", c.conflict, out.Error.Details)
		}
		unchanged(t, dir, files)
	}
}

// TestOutcomeDecoded: the Outcome holds the answer's parts, decoded once:
// the result as the core wrote it, the refusal typed (the core's and the
// host's), the plan applied; Answer is what hosts print.
func TestOutcomeDecoded(t *testing.T) {
	files := map[string]string{"10-episodes/projects/alpha/context.md": "---\nkind: project\nphase: build\n---\n# Alpha\n"}
	_, v := newVault(t, files)
	opts := call.Options{Now: time.Date(2026, 11, 30, 9, 15, 0, 0, time.UTC), TZ: "Europe/Paris"}
	run := func(args string, opts call.Options) (call.Outcome, core.Answer) {
		t.Helper()
		out, err := call.Run(context.Background(), v, engine.Native(), "mem_update_phase", json.RawMessage(args), opts)
		if err != nil {
			t.Fatal(err)
		}
		var printed core.Answer
		if err := json.Unmarshal(out.Answer, &printed); err != nil {
			t.Fatalf("answer %s: %v", out.Answer, err)
		}
		if printed.Plan != nil || printed.Conflict != "" || printed.Need != nil {
			t.Errorf("the printed answer %s holds more than ok, result, error", out.Answer)
		}
		return out, printed
	}

	out, printed := run(`{"slug":"alpha","phase":"review"}`, opts)
	if !out.OK || out.Error != nil || !bytes.Equal(out.Result, printed.Result) || len(out.Plan) != 1 || !bytes.Contains(out.Raw, []byte(`"plan":[`)) {
		t.Errorf("ok: ok %v, error %+v, result %s, plan %d ops; answer %s", out.OK, out.Error, out.Result, len(out.Plan), out.Answer)
	}

	out, printed = run(`{"slug":"Alpha!","phase":"review"}`, opts)
	if out.OK || out.Error == nil || printed.Error == nil || out.Error.Code != "INVALID_SLUG" || out.Error.Message != printed.Error.Message || out.Result != nil || out.Plan != nil {
		t.Errorf("the core's refusal: ok %v, error %+v, result %s, plan %d ops; answer %s", out.OK, out.Error, out.Result, len(out.Plan), out.Answer)
	}

	opts.Timeout = time.Nanosecond
	out, printed = run(`{"slug":"alpha","phase":"draft"}`, opts)
	if out.OK || out.Error == nil || printed.Error == nil || out.Error.Code != "LIMIT_EXCEEDED" || out.Error.Message != printed.Error.Message || !bytes.Equal(out.Raw, out.Answer) {
		t.Errorf("the host's refusal: ok %v, error %+v, result %s, plan %d ops; answer %s", out.OK, out.Error, out.Result, len(out.Plan), out.Answer)
	}
}

// TestRoundsBounded: a core that keeps asking is refused after the
// policy's rounds (hostlogic.Rounds, the plugin's too), in the call's
// language; a search index's batches would not count (batch_test.go).
func TestRoundsBounded(t *testing.T) {
	_, v := newVault(t, map[string]string{"a.md": "A"})
	for lang, want := range map[string]string{
		"en": `{"ok":false,"error":{"code":"LIMIT_EXCEEDED","message":"mem_x still needed more of the vault after 3 rounds","details":{"rounds":3}}}`,
		"fr": `{"ok":false,"error":{"code":"LIMIT_EXCEEDED","message":"mem_x demandait encore des fichiers après 3 tours","details":{"rounds":3}}}`,
	} {
		need := `{"need":{"files":["a.md"]}}`
		eng := &scripted{answers: []string{need, need, need, need}}
		out, err := call.Run(context.Background(), v, eng, "mem_x", json.RawMessage(`{}`), call.Options{MaxRounds: 3, Lang: lang})
		if err != nil {
			t.Fatal(err)
		}
		if string(out.Answer) != want || len(eng.answers) != 1 {
			t.Errorf("%s: %s after %d rounds\nwant %s after 3", lang, out.Answer, 4-len(eng.answers), want)
		}
	}
}
