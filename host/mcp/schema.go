package mcp

import (
	"context"
	"fmt"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kessho/kessho/core/catalog"
	"github.com/kessho/kessho/core/tools"
)

// outputSchemas is each tool's output schema, by name, built on first use.
var outputSchemas = sync.OnceValues(func() (map[string]*jsonschema.Schema, error) {
	out := map[string]*jsonschema.Schema{}
	for _, t := range tools.Specs() {
		s, err := outputSchema(t)
		if err != nil {
			return nil, err
		}
		out[t.Name] = s
	}
	return out, nil
})

// OutputSchema returns the JSON Schema of the result of the tool named
// name, what a successful call answers as structuredContent: the model's
// view (modelView) of the "result" of `kessho call`'s answer. It is derived from the result's Go types
// that the catalogue records (catalog.Tool.Results): an object whose
// fields are the struct's JSON fields, every field without omitempty
// required and no other field allowed, a field that may be null an anyOf
// of null and its type (see nullAnyOf); a tool with two result shapes
// (mem_worklog) has an object schema that is any of them; then the view's
// changes (viewSchema).
func OutputSchema(name string) (*jsonschema.Schema, error) {
	all, err := outputSchemas()
	if err != nil {
		return nil, err
	}
	s, ok := all[name]
	if !ok {
		return nil, fmt.Errorf("no tool named %q", name)
	}
	return s, nil
}

// nullMaps lets every map of s (an object schema that is not a struct's:
// its additionalProperties is not false) be null, as encoding/json writes
// a nil map. jsonschema.For lets a nil slice or pointer be null already.
func nullMaps(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if s.Type == "object" && s.Properties == nil && s.AdditionalProperties != nil && s.AdditionalProperties.Not == nil {
		s.Type, s.Types = "", []string{"null", "object"}
	}
	nullMaps(s.Items)
	nullMaps(s.AdditionalProperties)
	for _, p := range s.Properties {
		nullMaps(p)
	}
}

// nullAnyOf rewrites every schema under s that allows null by a list of
// types (jsonschema.For's {"type": ["null", "array"]} for a slice, and
// nullMaps') as an anyOf of the null schema and the other type: the same
// values, in the form every host's schema dialect takes (one rejects a
// list of types).
func nullAnyOf(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	nullAnyOf(s.Items)
	nullAnyOf(s.AdditionalProperties)
	for _, p := range s.Properties {
		nullAnyOf(p)
	}
	for _, a := range s.AnyOf {
		nullAnyOf(a)
	}
	var others []string
	for _, typ := range s.Types {
		if typ != "null" {
			others = append(others, typ)
		}
	}
	if len(s.Types) == 0 || len(others) == len(s.Types) {
		return
	}
	value := *s
	value.Types = nil
	if len(others) == 1 {
		value.Type = others[0]
	} else {
		value.Types = others
	}
	*s = jsonschema.Schema{AnyOf: []*jsonschema.Schema{{Type: "null"}, &value}}
}

func outputSchema(t *catalog.Tool) (*jsonschema.Schema, error) {
	var shapes []*jsonschema.Schema
	for _, r := range t.Results {
		s, err := jsonschema.ForType(r, nil)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", t.Name, err)
		}
		nullMaps(s)
		nullAnyOf(s)
		shapes = append(shapes, s)
	}
	var s *jsonschema.Schema
	switch len(shapes) {
	case 0:
		return nil, fmt.Errorf("%s: the catalogue gives no result type", t.Name)
	case 1:
		s = shapes[0]
	default:
		s = &jsonschema.Schema{Type: "object", AnyOf: shapes}
	}
	viewSchema(t.Name, s)
	return s, nil
}

// outputSchemaSince is the first protocol revision that defines a tool's
// outputSchema (2025-06-18, with a result's structuredContent).
const outputSchemaSince = "2025-06-18"

// olderClients is the server's middleware that lists the tools without
// their output schemas to a session whose protocol revision predates
// outputSchemaSince: such a client knows no outputSchema, and may hand
// the model every field of a tool it does not know for the client's own.
// Nothing is lost to it: a call's answer is its text content, the same
// JSON as structuredContent (see result). A session without initialize
// parameters speaks a revision after 2025-11-25, and gets them.
func olderClients(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		res, err := next(ctx, method, req)
		list, isList := res.(*sdk.ListToolsResult)
		ss, isServer := req.GetSession().(*sdk.ServerSession)
		if err != nil || !isList || !isServer || ss.InitializeParams() == nil || ss.InitializeParams().ProtocolVersion >= outputSchemaSince {
			return res, err
		}
		bare := *list
		bare.Tools = make([]*sdk.Tool, len(list.Tools))
		for i, tool := range list.Tools {
			t := *tool
			t.OutputSchema = nil
			bare.Tools[i] = &t
		}
		return &bare, nil
	}
}
