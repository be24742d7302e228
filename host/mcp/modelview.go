package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/kessho/kessho/core/vault"
)

// The model's view of an answer: what a call's structuredContent holds,
// and its text content serialized (the same JSON, as the protocol asks of
// a tool with an output schema). Clients hand a model one or the other:
// Claude Code, Codex and Copilot CLI give it JSON.stringify of
// structuredContent and drop the text, others give it the text (RATIONALE:
// "How does an answer carry its summary and its data?"). So each says a
// fact once, and carries only facts:
//
//   - no summary_md: the core's Markdown rendering of the same data, for
//     the hosts that show an answer to a person (the CLI's commands, the
//     Obsidian plugin), stays out;
//   - a search hit or a recalled archive that is a resource is addressed
//     by its kessho:// URI in place of its vault path (the link is the
//     address, never both); a search hit drops what its address already
//     says (zone, slug) or its title (a date the title holds), the
//     index's bookkeeping (matched) and the
//     highlights (terms, marks: for a screen), and its
//     line is cut at hitLineMax characters.
//
// The result's other fields are the core's, in the core's order.

// hitLineMax is the most characters of a search hit's line the model
// reads: a snippet, the note itself is one resources/read away.
const hitLineMax = 160

// modelView is the model's view of tool's result (a JSON object).
func modelView(tool string, result json.RawMessage) (json.RawMessage, error) {
	obj, err := decodeObject(result)
	if err != nil {
		return nil, err
	}
	obj = obj.without("summary_md")
	switch tool {
	case "mem_search":
		err = obj.mapArray("hits", searchHitView)
	case "mem_recall":
		err = obj.mapArray("archives", func(a object) (object, error) { return addressed(a) })
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %v", tool, err)
	}
	return obj.encode(), nil
}

// searchHitView is a search hit as the model reads it.
func searchHitView(h object) (object, error) {
	h, err := addressed(h.without("zone", "slug", "matched", "terms", "marks"))
	if err != nil {
		return nil, err
	}
	if v, ok := h.get("date"); ok && (string(v) == "null" || titleSays(h, v)) {
		h = h.without("date")
	}
	if v, ok := h.get("line"); ok {
		var line string
		if err := json.Unmarshal(v, &line); err != nil {
			return nil, err
		}
		if utf8.RuneCountInString(line) > hitLineMax {
			h.set("line", encodeValue(string([]rune(line)[:hitLineMax-1])+"…"))
		}
	}
	return h, nil
}

// titleSays reports whether hit h's title already says its date (an
// archive's title is "<slug> — <date> <subject>"): the date is then read
// once, in the title.
func titleSays(h object, date json.RawMessage) bool {
	var d, title string
	t, ok := h.get("title")
	if !ok || json.Unmarshal(date, &d) != nil || json.Unmarshal(t, &title) != nil {
		return false
	}
	return d != "" && strings.Contains(title, d)
}

// addressed replaces o's "path" by its kessho:// URI, in place, when the
// path is a resource's file.
func addressed(o object) (object, error) {
	v, ok := o.get("path")
	if !ok {
		return o, nil
	}
	var p string
	if err := json.Unmarshal(v, &p); err != nil {
		return nil, err
	}
	if r, ok := resourceOf(p); ok {
		for i := range o {
			if o[i].key == "path" {
				o[i] = member{"uri", encodeValue(r.String())}
			}
		}
	}
	return o, nil
}

// resourceOf is the resource whose file is the vault path p: a project's
// or domain's context.md, history.md, or an archive (archives/*.md).
func resourceOf(p string) (resourceURI, bool) {
	for _, k := range []string{vault.KindProject, vault.KindDomain, vault.KindArchived} {
		base, ok := strings.CutPrefix(p, vault.Dir(k, "")) // "10-episodes/projects/"
		if !ok {
			continue
		}
		slug, file, ok := strings.Cut(base, "/")
		if !ok || vault.CheckSlug("slug", slug) != nil {
			return resourceURI{}, false
		}
		kind := vault.Project{Kind: k}.Type()
		switch {
		case file == "context.md" || file == "history.md":
			return resourceURI{kind: kind, slug: slug, what: strings.TrimSuffix(file, ".md")}, true
		case strings.HasPrefix(file, "archives/") && strings.HasSuffix(file, ".md") && !strings.Contains(file[len("archives/"):], "/"):
			return resourceURI{kind: kind, slug: slug, what: "archive", name: file[len("archives/"):]}, true
		}
		return resourceURI{}, false
	}
	return resourceURI{}, false
}

// viewSchema turns the output schema of tool's core result s into the
// schema of its model view (modelView), in place.
func viewSchema(tool string, s *jsonschema.Schema) {
	for _, shape := range append([]*jsonschema.Schema{s}, s.AnyOf...) {
		dropProperty(shape, "summary_md")
	}
	// items is the schema of field's items, in whichever of the result's
	// shapes has the field (mem_recall's are a project's recall and the
	// vault-wide briefing, as anyOf).
	items := func(field string) *jsonschema.Schema {
		for _, shape := range append([]*jsonschema.Schema{s}, s.AnyOf...) {
			if p := shape.Properties[field]; p != nil {
				for _, a := range append([]*jsonschema.Schema{p}, p.AnyOf...) {
					if a.Items != nil {
						return a.Items
					}
				}
			}
		}
		return nil
	}
	address := func(it *jsonschema.Schema) {
		if it == nil {
			return
		}
		dropProperty(it, "path")
		it.Properties["path"] = &jsonschema.Schema{Type: "string"} // a note that is no resource
		it.Properties["uri"] = &jsonschema.Schema{Type: "string"}  // a resource's kessho:// URI
		it.OneOf = []*jsonschema.Schema{{Required: []string{"path"}}, {Required: []string{"uri"}}}
	}
	switch tool {
	case "mem_search":
		it := items("hits")
		address(it)
		if it != nil {
			for _, f := range []string{"zone", "slug", "matched"} {
				dropProperty(it, f)
			}
			dropRequired(it, "date")
		}
	case "mem_recall":
		address(items("archives"))
	}
}

func dropProperty(s *jsonschema.Schema, name string) {
	if s == nil || s.Properties == nil {
		return
	}
	delete(s.Properties, name)
	dropRequired(s, name)
}

func dropRequired(s *jsonschema.Schema, name string) {
	out := s.Required[:0:0]
	for _, r := range s.Required {
		if r != name {
			out = append(out, r)
		}
	}
	s.Required = out
}

// object is a JSON object's members in their order.
type object []member

type member struct {
	key string
	val json.RawMessage
}

func decodeObject(raw json.RawMessage) (object, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("not a JSON object")
	}
	var o object
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		o = append(o, member{t.(string), v})
	}
	return o, nil
}

func (o object) get(key string) (json.RawMessage, bool) {
	for _, m := range o {
		if m.key == key {
			return m.val, true
		}
	}
	return nil, false
}

func (o object) set(key string, v json.RawMessage) {
	for i := range o {
		if o[i].key == key {
			o[i].val = v
		}
	}
}

// without is o without the members named keys.
func (o object) without(keys ...string) object {
	out := make(object, 0, len(o))
	for _, m := range o {
		drop := false
		for _, k := range keys {
			drop = drop || m.key == k
		}
		if !drop {
			out = append(out, m)
		}
	}
	return out
}

// mapArray replaces each object of the array member key by f's.
func (o object) mapArray(key string, f func(object) (object, error)) error {
	v, ok := o.get(key)
	if !ok || string(v) == "null" {
		return nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(v, &items); err != nil {
		return fmt.Errorf("%s: %v", key, err)
	}
	var b bytes.Buffer
	b.WriteByte('[')
	for i, it := range items {
		obj, err := decodeObject(it)
		if err != nil {
			return fmt.Errorf("%s[%d]: %v", key, i, err)
		}
		if obj, err = f(obj); err != nil {
			return fmt.Errorf("%s[%d]: %v", key, i, err)
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(obj.encode())
	}
	b.WriteByte(']')
	o.set(key, b.Bytes())
	return nil
}

func (o object) encode() json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(encodeValue(m.key))
		b.WriteByte(':')
		b.Write(m.val)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// encodeValue is v's JSON, HTML characters as they are (as the core
// writes its answers).
func encodeValue(v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // a string never fails
	return bytes.TrimRight(b.Bytes(), "\n")
}
