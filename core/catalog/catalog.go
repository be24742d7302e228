// Package catalog is the one description of every Kessho tool: its name,
// parameters (JSON type, required, default, bounds, enum), the errors it
// may return, and what it does, in English and French.
//
// The specs themselves sit beside each tool's code (core/tools: one
// catalog.Tool per tool, in tools.All); this package holds their types and
// what is derived from them. Everything else is derived from it: argument validation (Tool.Validate),
// the MCP tool list and its JSON Schemas (Tool.Schema), the CLI's friendly
// forms and help, the Obsidian plugin's forms, and docs/reference.md.
// No host hard-codes a parameter.
package catalog

import (
	"encoding/json"
	"maps"
	"reflect"

	"github.com/kessho/kessho/core/fault"
)

// Text is a sentence in each supported language.
type Text struct {
	En string `json:"en"`
	Fr string `json:"fr"`
}

// In returns the text in lang ("fr" or anything else for English).
func (t Text) In(lang string) string {
	if lang == "fr" && t.Fr != "" {
		return t.Fr
	}
	return t.En
}

// JSON types of parameters.
const (
	String  = "string"
	Integer = "integer"
	Number  = "number"
	Boolean = "boolean"
	Array   = "array"
	Object  = "object"
)

// Param is one parameter (or, in Items and Props, one part of a value).
//
// Bounds: MinLength/MaxLength count characters (runes) of a string;
// Minimum/Maximum bound a number; MinItems/MaxItems an array. Items types
// an array's elements; Props lists an object's known fields (an object
// without Props accepts any fields). A null value is the same as an
// omitted one.
//
// OneLine marks a string that Kessho writes as (part of) one line of YAML
// or Markdown: a frontmatter value, a history line, a file name. Such a
// string may not hold a control character (Unicode category Cc: U+0000 to
// U+001F, U+007F, U+0080 to U+009F), except TAB, which is a blank, and CR
// and LF, which each tool treats as documented (refused by phase and
// archive_subject, joined into a space by summary). Every string
// parameter, one line or not, must be valid UTF-8 (see Validate).
type Param struct {
	Name        string   `json:"name,omitempty"`
	Type        string   `json:"type"`
	Required    bool     `json:"required,omitempty"`
	Default     any      `json:"default,omitempty"`
	Enum        []string `json:"enum,omitempty"`
	MinLength   *int     `json:"min_length,omitempty"`
	MaxLength   *int     `json:"max_length,omitempty"`
	Minimum     *float64 `json:"minimum,omitempty"`
	Maximum     *float64 `json:"maximum,omitempty"`
	MinItems    *int     `json:"min_items,omitempty"`
	MaxItems    *int     `json:"max_items,omitempty"`
	Items       *Param   `json:"items,omitempty"`
	Props       []Param  `json:"props,omitempty"`
	OneLine     bool     `json:"one_line,omitempty"`
	Description Text     `json:"description"`
	// Synonyms are the values a string parameter with an Enum accepts
	// besides it, each read as the enum value it maps to before any
	// check: the memory-kit's folder names of zones ("10-episodes" for
	// episodes). They are never advertised (no schema, form, help or
	// reference row shows them) and a tool sees only the enum value.
	Synonyms map[string]string `json:"-"`
	// SynonymOf, on an unlisted parameter (Tool.Unlisted), names the
	// parameter it is another name for: its value is checked by that
	// parameter's rules (messages name the one sent) and handed to the
	// tool as that parameter's; both given with different values is
	// INVALID_ARGUMENT naming both.
	SynonymOf string `json:"-"`
}

// CLI says how the command line offers a tool besides `kessho call`:
// `kessho <Command> <Args…> [--param value…]`, positional Args first.
type CLI struct {
	Command string   `json:"command"`
	Args    []string `json:"args,omitempty"`
}

// Tool is one tool of the catalogue.
type Tool struct {
	Name        string  `json:"name"`
	Title       Text    `json:"title"`
	Description Text    `json:"description"`
	Params      []Param `json:"params"`
	// Unlisted are parameters the core accepts but no host advertises:
	// the shapes the memory-kit's own procedures send (docs/CONVENTIONS.md,
	// "Parameters the memory-kit's agents send"), which Kessho's model is
	// not taught. Validate takes them as it takes Params (an Args holds
	// their values); the MCP input schema, the CLI's flags and help, the
	// plugin's forms (`kessho catalog` leaves them out) and the parameter
	// tables of docs/reference.md list only Params, so they cost the
	// model's view of the catalogue nothing. They have no description: the
	// reference lists their names under the tool, and CONVENTIONS says what
	// each means.
	Unlisted []Param      `json:"-"`
	Errors   []fault.Code `json:"errors"`
	// Writes is false for tools that never return a plan: MCP's
	// readOnlyHint is its negation. A tool whose default mode writes
	// nothing but another mode writes is a writer, and its description
	// says in its first sentence that the default writes nothing.
	Writes bool `json:"writes"`
	// Destructive is set for a writer one of whose calls may remove or
	// overwrite content it did not itself write (MCP's destructiveHint);
	// a writer without it only adds files, or changes files while keeping
	// every byte of content they held (moved or marked, never lost).
	Destructive bool `json:"destructive"`
	// Idempotent is set when a second call with the same arguments (at
	// the same time) changes nothing more in the vault (MCP's
	// idempotentHint). Every reader is.
	Idempotent bool `json:"idempotent"`
	// Results are the Go types of the tool's result, one per shape it can
	// take (mem_worklog answers one shape when collecting, another when
	// persisting): hosts derive its output JSON Schema from them.
	Results []reflect.Type `json:"-"`
	// ConflictCode is the code a host gives when a plan's precondition
	// fails; "" means CONFLICT.
	ConflictCode fault.Code `json:"conflict_code,omitempty"`
	CLI          CLI        `json:"cli"`
	// Text gives the tool's texts (title, description, parameters'
	// descriptions) from its text file; Described puts them in place. Nil
	// for a spec whose texts are written in Go.
	Text func() *ToolText `json:"-"`
	// Example is a call's arguments, from the text file (Described puts
	// it in place): the fixtures that call every tool derive their calls
	// from it (ToolText.Example).
	Example map[string]any `json:"-"`
}

// ExampleOn returns the arguments of t's example call (Example) as JSON,
// a slug argument renamed by projects when it names one of them: the
// examples name the projects of the MCP clients' vault (alpha, beta), and
// a fixture on another vault gives its own for them. ok is false when t
// has no example.
func (t *Tool) ExampleOn(projects map[string]string) (args json.RawMessage, ok bool) {
	if t.Example == nil {
		return nil, false
	}
	ex := maps.Clone(t.Example)
	if slug, isString := ex["slug"].(string); isString && projects[slug] != "" {
		ex["slug"] = projects[slug]
	}
	b, err := json.Marshal(ex)
	if err != nil {
		panic(err) // a text file's example is YAML's data, which encodes
	}
	return b, true
}

// Param returns the parameter named name.
func (t *Tool) Param(name string) (*Param, bool) {
	for i := range t.Params {
		if t.Params[i].Name == name {
			return &t.Params[i], true
		}
	}
	return nil, false
}

// accepted returns the parameter named name among Params, then Unlisted.
func (t *Tool) accepted(name string) (*Param, bool) {
	if p, ok := t.Param(name); ok {
		return p, true
	}
	for i := range t.Unlisted {
		if t.Unlisted[i].Name == name {
			return &t.Unlisted[i], true
		}
	}
	return nil, false
}

// Errors every tool shares (SPEC section 7).
var Shared = []fault.Code{fault.InvalidArgument, fault.InvalidSlug, fault.UnknownSlug, fault.ProjectArchived,
	fault.FrontmatterInvalid, fault.Conflict, fault.RecoveryConflict, fault.VaultLocked, fault.LimitExceeded, fault.DiskFull, fault.Internal}

// CodeNames returns codes as strings, in order.
func CodeNames(codes []fault.Code) []string {
	out := make([]string, len(codes))
	for i, c := range codes {
		out[i] = string(c)
	}
	return out
}

// ToolText is a tool's human texts, kept in a data file beside its code
// (see core/i18n): its title, its description, and each parameter's
// description keyed by the parameter's path ("phase"; "derive.fact" for
// the field fact of derive's items); and an example call's arguments,
// which are no text: each tool's is a call that succeeds on the MCP
// clients' vault (core/tools says which), from which the fixtures that
// call every tool derive their calls. Moment is when an agent calls the
// tool, the words its description's first sentence says it with (and no
// other tool's first sentence says): core/tools' TestMoments.
type ToolText struct {
	Title       Text
	Description Text
	Moment      Text
	Params      map[string]Text
	Example     map[string]any
}

// Described returns a copy of t with its texts from t.Text in place; a
// parameter t.Text does not describe takes its description from shared
// (the parameters several tools share, such as slug). It returns t itself
// when t.Text is nil.
func (t *Tool) Described(shared map[string]Text) *Tool {
	if t.Text == nil {
		return t
	}
	text := t.Text()
	d := *t
	d.Title, d.Description, d.Example = text.Title, text.Description, text.Example
	d.Params = describeParams(t.Params, "", text.Params, shared)
	return &d
}

// describeParams returns a copy of ps, each described from own or shared
// by its path under prefix.
func describeParams(ps []Param, prefix string, own, shared map[string]Text) []Param {
	if ps == nil {
		return nil
	}
	out := make([]Param, len(ps))
	for i, p := range ps {
		path := prefix + p.Name
		if d, ok := own[path]; ok {
			p.Description = d
		} else if d, ok := shared[path]; ok {
			p.Description = d
		}
		if p.Items != nil {
			items := *p.Items
			items.Props = describeParams(items.Props, path+".", own, shared)
			p.Items = &items
		}
		p.Props = describeParams(p.Props, path+".", own, shared)
		out[i] = p
	}
	return out
}

// TextPaths returns the paths of every parameter of t, as ToolText.Params
// keys them: what a tool's text file may describe.
func (t *Tool) TextPaths() []string {
	var out []string
	var walk func(ps []Param, prefix string)
	walk = func(ps []Param, prefix string) {
		for _, p := range ps {
			path := prefix + p.Name
			out = append(out, path)
			if p.Items != nil {
				walk(p.Items.Props, path+".")
			}
			walk(p.Props, path+".")
		}
	}
	walk(t.Params, "")
	return out
}
