package catalog

import (
	"encoding/json"
	"reflect"
	"testing"
)

type testBase struct {
	S string `json:"s"`
}

type testObj struct {
	Fact string `json:"fact"`
	Kind string `json:"kind"`
}

// testArgs is testTool's arguments as a tool's Args type has them.
type testArgs struct {
	testBase
	Mode  *string         `json:"mode"`
	N     float64         `json:"n"`
	I     int             `json:"i"`
	B     bool            `json:"b"`
	List  []string        `json:"list"`
	Objs  []testObj       `json:"objs"`
	Any   json.RawMessage `json:"any"`
	Line  *string         `json:"line"`
	Lines []string        `json:"lines"`
	D     int             `json:"d"`
	F     float64         `json:"f"`
}

// looseArgs has what Decode leaves to encoding/json: an interface, a map,
// a field matched by case alone.
type looseArgs struct {
	S    string         `json:"S"`
	Any  map[string]any `json:"any"`
	List []any          `json:"list"`
}

// TestDecodeIsUnmarshal checks that Decode stores what
// json.Unmarshal(Args.JSON()) stores, without encoding/json for the
// types the tools' Args use, and through it for the others.
func TestDecodeIsUnmarshal(t *testing.T) {
	tool := testTool()
	tool.Params = append(tool.Params, Param{Name: "d", Type: Integer, Default: 4}, Param{Name: "f", Type: Number, Default: 7})
	for _, raw := range []string{
		`{"s":"abc"}`, `{"s":"a","mode":null,"n":null}`, `{ "s" : "héllo", "mode":"b","n":7.5,"i":3,"b":true,"list":["x"],"any":{"z":[1], "a":"<&>"}}`,
		`{"s":"a","objs":[{"fact":"f"},{"fact":"g","kind":"goal"}],"list":[],"lines":["x\ty"]}`, `{"s":"a","n":1e1,"i":-0,"line":"\u00e9"}`,
		`{"s":"a","s":"b"}`, `{"s":"a","any":{}}`, `{"s":"a","i":12345678901}`,
	} {
		args, err := tool.Validate(json.RawMessage(raw))
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		js, err := args.JSON()
		if err != nil {
			t.Fatal(err)
		}
		var want, got testArgs
		if err := json.Unmarshal(js, &want); err != nil {
			t.Fatal(err)
		}
		if !args.assignTop(reflect.ValueOf(&got).Elem()) {
			t.Errorf("%s: Decode went through encoding/json", raw)
		}
		if err := args.Decode(&got); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Decode stores\n%#v\nUnmarshal\n%#v", raw, got, want)
		}
		var loose, wantLoose looseArgs
		errGot, errWant := args.Decode(&loose), json.Unmarshal(js, &wantLoose)
		if !reflect.DeepEqual(loose, wantLoose) || (errGot == nil) != (errWant == nil) {
			t.Errorf("%s: Decode stores %#v (%v), Unmarshal %#v (%v)", raw, loose, errGot, wantLoose, errWant)
		}
	}
}
