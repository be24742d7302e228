package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kessho/kessho/core/tools"
	"github.com/kessho/kessho/host/engine"
	"github.com/kessho/kessho/host/internal/conformance"
	"github.com/kessho/kessho/host/mcp"
)

// TestOutputSchemas checks every conformance case's successful result
// (its answer.json's result, as the model views it: mcp.ModelView)
// against its tool's output schema, and that
// each schema constrains: a result with a field too many, or without one
// it requires, is refused. Every tool must have a successful case.
func TestOutputSchemas(t *testing.T) {
	validated := map[string]int{}
	for c, a := range successes(t) {
		s, err := mcp.OutputSchema(c.Call.Tool)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		view, err := mcp.ModelView(c.Call.Tool, a.Result)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		if err := validate(s, view); err != nil {
			t.Errorf("%s: %s's result does not match its output schema: %v", c.Name, c.Call.Tool, err)
		}
		var extra map[string]any
		if err := json.Unmarshal(view, &extra); err != nil {
			t.Fatal(err)
		}
		extra["not_a_field"] = 1
		if validate(s, extra) == nil {
			t.Errorf("%s: its output schema accepts a result with an unknown field", c.Call.Tool)
		}
		delete(extra, "not_a_field")
		delete(extra, "warnings")
		if validate(s, extra) == nil {
			t.Errorf("%s: its output schema accepts a result without warnings", c.Call.Tool)
		}
		validated[c.Call.Tool]++
	}
	for _, spec := range tools.Specs() {
		if validated[spec.Name] == 0 {
			t.Errorf("%s: no successful conformance case validated its output schema", spec.Name)
		}
	}
}

// TestServedOutputSchemas serves each successful conformance case's vault
// over MCP (native engine, the case's time, zone and language), and checks
// that tools/list gives every tool an object output schema, the one
// OutputSchema returns, and that the structuredContent of the case's
// real call validates against the schema the list gave.
func TestServedOutputSchemas(t *testing.T) {
	listed := false
	for c := range successes(t) {
		dir := t.TempDir()
		if err := c.WriteVault(dir); err != nil {
			t.Fatal(err)
		}
		now, err := time.Parse(time.RFC3339, c.Call.Now)
		if err != nil {
			t.Fatal(err)
		}
		srv := mcp.NewServer(openVault(t, dir), engine.Native(),
			mcp.Options{Lang: c.Call.Lang, TZ: c.Call.TZ, Now: func() time.Time { return now }})
		cs := connect(t, srv)
		schemas := listedSchemas(t, cs)
		if !listed {
			listed = true
			for _, spec := range tools.Specs() {
				want, _ := mcp.OutputSchema(spec.Name)
				if got, ok := schemas[spec.Name]; !ok || got.Type != "object" || !reflect.DeepEqual(roundTrip(t, got), roundTrip(t, want)) {
					t.Errorf("%s: tools/list's outputSchema %s, want %s", spec.Name, mustJSON(t, got), mustJSON(t, want))
				}
			}
		}
		var args map[string]any
		if err := json.Unmarshal(c.Call.Args, &args); err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: c.Call.Tool, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		if res.IsError || res.StructuredContent == nil {
			t.Errorf("%s: a successful call answered isError=%v, structuredContent %v", c.Name, res.IsError, res.StructuredContent)
			continue
		}
		if err := validate(schemas[c.Call.Tool], res.StructuredContent); err != nil {
			t.Errorf("%s: structuredContent does not match the listed outputSchema: %v", c.Name, err)
		}
	}
}

// successes yields every conformance case whose call succeeds, with its
// answer.
func successes(t *testing.T) iter.Seq2[*conformance.Case, answer] {
	cases, err := conformance.Load("../../testdata/cases")
	if err != nil {
		t.Fatal(err)
	}
	return func(yield func(*conformance.Case, answer) bool) {
		for _, c := range cases {
			var a answer
			if err := json.Unmarshal([]byte(c.Answer), &a); err != nil {
				t.Fatalf("%s: %v", c.Name, err)
			}
			if a.OK && !yield(c, a) {
				return
			}
		}
	}
}

// listedSchemas returns each tool's outputSchema as tools/list gives it.
func listedSchemas(t *testing.T, cs *sdk.ClientSession) map[string]*jsonschema.Schema {
	t.Helper()
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*jsonschema.Schema{}
	for _, tool := range list.Tools {
		if tool.OutputSchema == nil {
			continue
		}
		var s jsonschema.Schema
		if err := json.Unmarshal(mustJSON(t, tool.OutputSchema), &s); err != nil {
			t.Fatalf("%s: outputSchema: %v", tool.Name, err)
		}
		out[tool.Name] = &s
	}
	return out
}

// validate checks a JSON value (raw, or decoded) against s.
func validate(s *jsonschema.Schema, v any) error {
	if s == nil {
		return errNoSchema
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	var instance any
	if err := json.Unmarshal(raw, &instance); err != nil {
		return err
	}
	r, err := s.Resolve(nil)
	if err != nil {
		return err
	}
	return r.Validate(instance)
}

type schemaError string

func (e schemaError) Error() string { return string(e) }

const errNoSchema = schemaError("no output schema")

// TestOutputSchemasOneType checks that no output schema gives a list of
// types ({"type": ["null", "string"]}), a form one host's schema dialect
// rejects: a value that may be null is an anyOf of null and its type.
func TestOutputSchemasOneType(t *testing.T) {
	var walk func(name, path string, v any)
	walk = func(name, path string, v any) {
		switch v := v.(type) {
		case map[string]any:
			if _, list := v["type"].([]any); list {
				t.Errorf("%s: %s gives a list of types: %v", name, path, v["type"])
			}
			for k, sub := range v {
				walk(name, path+"/"+k, sub)
			}
		case []any:
			for i, sub := range v {
				walk(name, fmt.Sprintf("%s/%d", path, i), sub)
			}
		}
	}
	nulls := 0
	for _, spec := range tools.Specs() {
		s, err := mcp.OutputSchema(spec.Name)
		if err != nil {
			t.Fatal(err)
		}
		b := mustJSON(t, s)
		nulls += strings.Count(string(b), `{"type":"null"}`)
		walk(spec.Name, "", roundTrip(t, s))
	}
	if nulls == 0 {
		t.Error(`no output schema lets a value be null ({"type":"null"} in an anyOf): nullAnyOf is not applied`)
	}
}

// TestOutputSchemasByRevision lists the tools to a client of each protocol
// revision the SDK speaks: from 2025-06-18, the revision that defines
// outputSchema, every tool has its output schema; before it, none has
// one, and the rest of each tool (what the model reads) is the same.
func TestOutputSchemasByRevision(t *testing.T) {
	srv := mcp.NewServer(openVault(t, newVault(t)), engine.Native(), mcp.Options{})
	listed := map[string][]*sdk.Tool{}
	for _, version := range []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"} {
		ctx := context.Background()
		st, ct := sdk.NewInMemoryTransports()
		ss, err := srv.Connect(ctx, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, &sdk.ClientSessionOptions{ProtocolVersion: version})
		if err != nil {
			t.Fatal(err)
		}
		if got := cs.InitializeResult().ProtocolVersion; got != version {
			t.Fatalf("asked for protocol %s, the session speaks %s", version, got)
		}
		list, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		cs.Close()
		ss.Wait()
		if len(list.Tools) != len(tools.Specs()) {
			t.Fatalf("%s: %d tools listed, want %d", version, len(list.Tools), len(tools.Specs()))
		}
		for _, tool := range list.Tools {
			if has, want := tool.OutputSchema != nil, version >= "2025-06-18"; has != want {
				t.Errorf("%s: %s has an output schema: %v, want %v", version, tool.Name, has, want)
			}
		}
		listed[version] = list.Tools
	}
	for i, tool := range listed["2025-03-26"] {
		bare := *listed["2025-06-18"][i]
		bare.OutputSchema = nil
		if got, want := mustJSON(t, tool), mustJSON(t, &bare); !bytes.Equal(got, want) {
			t.Errorf("%s: listed to 2025-03-26 as %s, want %s", tool.Name, got, want)
		}
	}
}
