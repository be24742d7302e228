package wire

import "encoding/json"

// EncodeAnswer is json.Marshal(ans), byte for byte, without its second
// pass over the result: encoding/json re-validates and re-compacts a
// json.RawMessage, and the result is already the compact JSON json.Marshal
// made of it (the core's okAnswer). An answer carrying a search index goes through
// json.Marshal (the index itself follows the JSON: core.Core.Handle, Prepend).
func EncodeAnswer(ans Answer) ([]byte, error) {
	if ans.OK == nil || !*ans.OK || ans.Need != nil || ans.Error != nil || ans.Search != nil {
		return json.Marshal(ans)
	}
	out := append(make([]byte, 0, len(ans.Result)+64), `{"ok":true`...)
	if len(ans.Result) > 0 {
		out = append(append(out, `,"result":`...), ans.Result...)
	}
	if len(ans.Plan) > 0 {
		p, err := json.Marshal(ans.Plan)
		if err != nil {
			return nil, err
		}
		out = append(append(out, `,"plan":`...), p...)
	}
	if ans.Conflict != "" {
		c, _ := json.Marshal(ans.Conflict)
		out = append(append(out, `,"conflict":`...), c...)
	}
	return append(out, '}'), nil
}
