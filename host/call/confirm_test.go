package call_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/host/call"
)

// TestConfirm: a plan the core asks to confirm ("confirm" beside it) is
// applied only once Options.Confirm, given the core's question, says yes;
// the vault's lock is free while it asks; a no writes nothing and
// answers its error; a file changed while the user was asked is a
// CONFLICT, the change kept; a plan without the question, or a call
// without Confirm, is applied without asking.
func TestConfirm(t *testing.T) {
	const question = "Write a.md?"
	planned := `{"ok":true,"result":{"summary_md":"s"},"plan":[{"op":"write","path":"a.md","expect":"absent","text":"new"}]`
	withQuestion := planned + `,"confirm":"` + question + `"}`
	declined := fault.New(fault.Declined, nil, "the user declined: nothing written", "refusé par l'utilisateur : rien d'écrit")
	for _, c := range []struct {
		name, answer string
		confirm      func(t *testing.T, dir string, lock func() error) error
		asked        bool
		want         string // the refusal's code, "" for a success
		file         string // a.md after the call, "" for none
	}{
		{"yes", withQuestion, func(t *testing.T, _ string, lock func() error) error {
			if err := lock(); err != nil {
				t.Errorf("the vault's lock while asking: %v; want it free", err)
			}
			return nil
		}, true, "", "new"},
		{"no", withQuestion, func(*testing.T, string, func() error) error { return declined }, true, "DECLINED", ""},
		{"changed meanwhile", withQuestion, func(t *testing.T, dir string, _ func() error) error {
			return os.WriteFile(filepath.Join(dir, "a.md"), []byte("theirs"), 0o644)
		}, true, "CONFLICT", "theirs"},
		{"no question", planned + "}", func(*testing.T, string, func() error) error { return declined }, false, "", "new"},
		{"no Confirm", withQuestion, nil, false, "", "new"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, v := newVault(t, map[string]string{"b.md": "b"})
			var asked []string
			opts := call.Options{}
			if c.confirm != nil {
				opts.Confirm = func(ctx context.Context, q string) error {
					asked = append(asked, q)
					return c.confirm(t, dir, func() error {
						l, err := v.Lock(ctx)
						if err != nil {
							return err
						}
						return l.Unlock()
					})
				}
			}
			out, err := call.Run(context.Background(), v, &scripted{answers: []string{c.answer}}, "mem_rollback_archive", json.RawMessage(`{}`), opts)
			if err != nil {
				t.Fatal(err)
			}
			if c.asked != (len(asked) == 1) || (c.asked && asked[0] != question) {
				t.Errorf("asked %q; want the core's question: %v", asked, c.asked)
			}
			if got := ""; out.Error != nil {
				got = out.Error.Code
				if got != c.want {
					t.Errorf("answer %s; want %q", out.Answer, c.want)
				}
			} else if c.want != "" || !out.OK {
				t.Errorf("answer %s; want %q", out.Answer, c.want)
			}
			b, err := os.ReadFile(filepath.Join(dir, "a.md"))
			if got := string(b); got != c.file || (c.file == "" && !errors.Is(err, os.ErrNotExist)) {
				t.Errorf("a.md: %q (%v); want %q", got, err, c.file)
			}
		})
	}
}
