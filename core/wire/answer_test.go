package wire

import (
	"bytes"
	"encoding/json"
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
