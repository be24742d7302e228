package catalog

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/kessho/kessho/core/fault"
)

func intp(n int) *int           { return &n }
func floatp(f float64) *float64 { return &f }

func testTool() *Tool {
	return &Tool{Name: "t", Params: []Param{
		{Name: "s", Type: String, Required: true, MaxLength: intp(5)},
		{Name: "mode", Type: String, Enum: []string{"a", "b"}, Default: "a"},
		{Name: "n", Type: Number, Minimum: floatp(0), Maximum: floatp(24)},
		{Name: "i", Type: Integer},
		{Name: "b", Type: Boolean},
		{Name: "list", Type: Array, Items: &Param{Type: String}, MaxItems: intp(2)},
		{Name: "objs", Type: Array, Items: &Param{Type: Object, Props: []Param{
			{Name: "fact", Type: String, Required: true}, {Name: "kind", Type: String, Enum: []string{"goal"}}}}},
		{Name: "any", Type: Object},
		{Name: "line", Type: String, OneLine: true},
		{Name: "lines", Type: Array, Items: &Param{Type: String, OneLine: true}},
	}}
}

func TestValidate(t *testing.T) {
	tool := testTool()
	tests := []struct {
		args  string
		param string // the parameter the refusal names; "" for success
		want  string // normalised args on success
	}{
		{`{"s":"abc"}`, "", `{"mode":"a","s":"abc"}`},
		{`{"s":"abc","mode":null,"n":null}`, "", `{"mode":"a","s":"abc"}`},
		{`{"s":"héllo","mode":"b","n":7.5,"i":3,"b":true,"list":["x"],"any":{"k":[1]}}`, "", `{"any":{"k":[1]},"b":true,"i":3,"list":["x"],"mode":"b","n":7.5,"s":"héllo"}`},
		{`{}`, "s", ""},
		{`{"s":null}`, "s", ""},
		{`{"s":"abc","zz":1}`, "zz", ""},
		{`{"s":12}`, "s", ""},
		{`{"s":"abcdef"}`, "s", ""},
		{`{"s":"a","mode":"c"}`, "mode", ""},
		{`{"s":"a","n":25}`, "n", ""},
		{`{"s":"a","n":-1}`, "n", ""},
		{`{"s":"a","n":"3"}`, "n", ""},
		{`{"s":"a","i":1.5}`, "i", ""},
		{`{"s":"a","b":"yes"}`, "b", ""},
		{`{"s":"a","list":"x"}`, "list", ""},
		{`{"s":"a","list":["x",2]}`, "list[1]", ""},
		{`{"s":"a","list":["x","y","z"]}`, "list", ""},
		{`{"s":"a","objs":[{"kind":"goal"}]}`, "objs[0].fact", ""},
		{`{"s":"a","objs":[{"fact":"f","x":1}]}`, "objs[0].x", ""},
		{`{"s":"a","objs":[{"fact":"f","kind":"nope"}]}`, "objs[0].kind", ""},
		{`{"s":"a","any":[]}`, "any", ""},
		{`[1]`, "args", ""},
		{`{"s":`, "args", ""},
		// One-line strings: TAB, CR and LF pass (the tools treat line
		// breaks), every other control character is refused.
		{`{"s":"a","line":"x\ty\r\nz"}`, "", `{"line":"x\ty\r\nz","mode":"a","s":"a"}`},
		{`{"s":"a","line":"x\u0000y"}`, "line", ""},
		{`{"s":"a","line":"x\u001b[31my"}`, "line", ""},
		{`{"s":"a","line":"x\u007fy"}`, "line", ""},
		{`{"s":"a","line":"x\u0085y"}`, "line", ""},
		{`{"s":"a","line":"x\u009fy"}`, "line", ""},
		{"{\"s\":\"a\",\"line\":\"x\u0085y\"}", "line", ""},
		{`{"s":"a","lines":["ok","x\u0007"]}`, "lines[1]", ""},
		{"{\"s\":\"a\",\"line\":\"\u200b\u202e é 🌞\"}", "", "{\"line\":\"\u200b\u202e é 🌞\",\"mode\":\"a\",\"s\":\"a\"}"},
		// Strings that are not UTF-8 are refused, not replaced.
		{"{\"s\":\"a\xffb\"}", "s", ""},
		{`{"s":"a\ud800"}`, "s", ""},
		{`{"s":"a\uDC00"}`, "s", ""},
		{`{"s":"a\ud800\u0041"}`, "s", ""},
		{`{"s":"\ud83c\udf1e"}`, "", `{"mode":"a","s":"\ud83c\udf1e"}`},
		{"{\"s\":\"a\xed\xa0\x80\"}", "s", ""},
		{"{\"s\":\"a\",\"objs\":[{\"fact\":\"f\xc3\"}]}", "objs[0].fact", ""},
		{"{\"s\":\"a\",\"any\":{\"k\":[\"ok\",\"\\udfff\"]}}", "any.k[1]", ""},
		{"{\"s\":\"a\",\"any\":{\"k\\ud800\":1}}", "any", ""},
		{"{\"s\xff\":\"a\"}", "args", ""},
	}
	for _, tt := range tests {
		args, err := tool.Validate(json.RawMessage(tt.args))
		if tt.param == "" {
			var got json.RawMessage
			if err == nil {
				got, err = args.JSON()
			}
			if err != nil || string(got) != tt.want {
				t.Errorf("Validate(%s) = %s, %v; want %s", tt.args, got, err, tt.want)
			}
			continue
		}
		e, ok := fault.As(err)
		if !ok || e.Code != fault.InvalidArgument || e.Details["parameter"] != tt.param {
			t.Errorf("Validate(%s) = %v; want INVALID_ARGUMENT naming %q", tt.args, err, tt.param)
			continue
		}
		if !strings.Contains(e.En, tt.param) || e.Fr == "" {
			t.Errorf("Validate(%s): message %q must name %q, in both languages", tt.args, e.En, tt.param)
		}
	}
}

func TestSchema(t *testing.T) {
	s := testTool().Schema("fr")
	b, _ := json.Marshal(s)
	for _, want := range []string{`"required":["s"]`, `"enum":["a","b"]`, `"maximum":24`, `"maxLength":5`, `"required":["fact"]`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("schema lacks %s: %s", want, b)
		}
	}
	// What the model reads, and nothing it need not: the core refuses
	// unknown parameters itself, and an empty required list says nothing.
	for _, unwanted := range []string{`additionalProperties`, `"required":[]`} {
		if strings.Contains(string(b), unwanted) {
			t.Errorf("schema holds %s: %s", unwanted, b)
		}
	}
	if b, _ := json.Marshal((&Tool{}).Schema("en")); string(b) != `{"properties":{},"type":"object"}` {
		t.Errorf("a tool without parameters: schema %s", b)
	}
}

// unlistedTool has a parameter with value synonyms and two unlisted
// parameters: a synonym of s and a flag.
func unlistedTool() *Tool {
	return &Tool{Name: "u", Params: []Param{
		{Name: "s", Type: String, Required: true, MaxLength: intp(5)},
		{Name: "zone", Type: String, Enum: []string{"ep", "kn"}, Synonyms: map[string]string{"10-ep": "ep", "10-ep/": "ep"}},
	}, Unlisted: []Param{
		{Name: "alias", Type: String, SynonymOf: "s"},
		{Name: "flag", Type: Boolean},
	}}
}

// TestValidateUnlisted checks the parameters and values a tool accepts
// without advertising them: a synonym's value is its parameter's, checked
// by its rules under the name sent; two different values under the two
// names are refused; a value synonym reads as its enum value, for the
// tool (Decode) as in the arguments' JSON; an unlisted parameter is taken
// like a listed one; neither the schema nor an unknown parameter's
// message names them.
func TestValidateUnlisted(t *testing.T) {
	tool := unlistedTool()
	tests := []struct{ args, param, want string }{
		{`{"alias":"abc"}`, "", `{"s":"abc"}`},
		{`{"alias":"abc","s":"abc"}`, "", `{"s":"abc"}`},
		{`{"alias":null,"s":"abc"}`, "", `{"s":"abc"}`},
		{`{"alias":"abc","s":null}`, "", `{"s":"abc"}`},
		{`{"alias":"abc","s":"abd"}`, "alias", ""},
		{`{"alias":"abcdef"}`, "alias", ""},
		{`{"alias":3}`, "alias", ""},
		{`{"alias":null}`, "s", ""},
		{`{"s":"a","zone":"10-ep"}`, "", `{"s":"a","zone":"ep"}`},
		{`{"s":"a","zone":"10-ep/"}`, "", `{"s":"a","zone":"ep"}`},
		{`{"s":"a","zone":"kn"}`, "", `{"s":"a","zone":"kn"}`},
		{`{"s":"a","zone":"20-kn"}`, "zone", ""},
		{`{"s":"a","flag":false}`, "", `{"flag":false,"s":"a"}`},
		{`{"s":"a","flag":"no"}`, "flag", ""},
		{`{"s":"a","other":1}`, "other", ""},
	}
	for _, tt := range tests {
		args, err := tool.Validate(json.RawMessage(tt.args))
		if tt.param == "" {
			var got json.RawMessage
			if err == nil {
				got, err = args.JSON()
			}
			if err != nil || string(got) != tt.want {
				t.Errorf("Validate(%s) = %s, %v; want %s", tt.args, got, err, tt.want)
			}
			var dst struct {
				S    string `json:"s"`
				Zone string `json:"zone"`
				Flag bool   `json:"flag"`
			}
			var want map[string]any
			if err := json.Unmarshal([]byte(tt.want), &want); err != nil {
				t.Fatal(err)
			}
			if err := args.Decode(&dst); err != nil || dst.S != want["s"] || want["zone"] != nil && dst.Zone != want["zone"] {
				t.Errorf("Validate(%s).Decode = %+v, %v; want %s", tt.args, dst, err, tt.want)
			}
			continue
		}
		e, ok := fault.As(err)
		if !ok || e.Code != fault.InvalidArgument || e.Details["parameter"] != tt.param || !strings.Contains(e.En, tt.param) || e.Fr == "" {
			t.Errorf("Validate(%s) = %v; want INVALID_ARGUMENT naming %q, in both languages", tt.args, err, tt.param)
		}
		if tt.param == "other" && (strings.Contains(e.En, "alias") || strings.Contains(e.En, "flag")) {
			t.Errorf("Validate(%s): %q names an unlisted parameter", tt.args, e.En)
		}
	}
	b, err := json.Marshal(tool.Schema("en"))
	if err != nil {
		t.Fatal(err)
	}
	for _, hidden := range []string{"alias", "flag", "10-ep"} {
		if strings.Contains(string(b), hidden) {
			t.Errorf("the schema %s shows %q", b, hidden)
		}
	}
	b, err = json.Marshal(tool)
	if err != nil {
		t.Fatal(err)
	}
	for _, hidden := range []string{"alias", "flag", "10-ep"} {
		if strings.Contains(string(b), hidden) {
			t.Errorf("the catalogue's JSON %s shows %q", b, hidden)
		}
	}
}
