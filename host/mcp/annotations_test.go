package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/kessho/kessho/core/catalog"
	"github.com/kessho/kessho/core/tools"
	hostcall "github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/engine"
	"github.com/kessho/kessho/host/internal/conformance"
	"github.com/kessho/kessho/host/mcp"
	"github.com/kessho/kessho/host/vaultfs"
)

// effects is what the calls of one tool were seen to do to their vaults.
type effects struct {
	calls, okCalls int
	wrote          []string // cases whose first call changed a byte
	repeated       []string // cases whose second call changed a byte
	destroyed      []string // cases that lost content the vault held before
	// defaultOK counts the successful calls made with every parameter that
	// has a default left out; defaultWrote the cases among them that wrote.
	defaultOK    int
	defaultWrote []string
}

// TestAnnotationsTellTheTruth calls every conformance case's tool twice
// with the same arguments on a copy of its vault (through host/call, the
// native engine) and checks each tool's MCP annotations against what its
// calls did, in both directions:
//
//   - readOnlyHint: no call changed a byte of the vault (its files outside
//     dot-folders: .kessho holds the host's lock, journal and rebuildable
//     search index, no content); without it, some call wrote.
//   - idempotentHint: no second call changed a byte; without it, some did.
//   - destructiveHint: some call lost content (see lost) the vault held
//     before the first call; without it, none did: the calls only added
//     files or changed them keeping every piece of content somewhere.
//   - openWorldHint is false, and the title is the catalogue's.
//
// It also calls each case's tool with the parameters that have a default
// left out (the tool's default mode): a writer whose default calls all
// write nothing must say so in its description's first sentence.
func TestAnnotationsTellTheTruth(t *testing.T) {
	cases, err := conformance.Load("../../testdata/cases")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]*effects{}
	for _, c := range cases {
		spec, ok := tools.Spec(c.Call.Tool)
		if !ok {
			continue // a case of an unknown tool
		}
		e := seen[c.Call.Tool]
		if e == nil {
			e = &effects{}
			seen[c.Call.Tool] = e
		}
		observe(t, c, c.Call.Args, e, false)
		observe(t, c, withoutDefaults(t, spec, c.Call.Args), e, true)
	}
	for _, spec := range tools.Specs() {
		e := seen[spec.Name]
		if e == nil || e.okCalls == 0 {
			t.Errorf("%s: no successful conformance case to observe it by", spec.Name)
			continue
		}
		a := mcp.Tool(spec, "en").Annotations
		if a.ReadOnlyHint && len(e.wrote) > 0 {
			t.Errorf("%s: readOnlyHint is true, but these cases wrote: %s", spec.Name, strings.Join(e.wrote, ", "))
		}
		if !a.ReadOnlyHint && len(e.wrote) == 0 {
			t.Errorf("%s: readOnlyHint is false, but no case wrote", spec.Name)
		}
		if a.IdempotentHint && len(e.repeated) > 0 {
			t.Errorf("%s: idempotentHint is true, but a second identical call changed the vault in: %s", spec.Name, strings.Join(e.repeated, ", "))
		}
		if !a.IdempotentHint && len(e.repeated) == 0 {
			t.Errorf("%s: idempotentHint is false, but no second identical call changed anything", spec.Name)
		}
		destructive := a.DestructiveHint == nil || *a.DestructiveHint // MCP's default is true
		if destructive && len(e.destroyed) == 0 {
			t.Errorf("%s: destructiveHint is true (or unset), but no case lost content", spec.Name)
		}
		if !destructive && len(e.destroyed) > 0 {
			t.Errorf("%s: destructiveHint is false, but content was lost in: %s", spec.Name, strings.Join(e.destroyed, ", "))
		}
		if a.OpenWorldHint == nil || *a.OpenWorldHint {
			t.Errorf("%s: openWorldHint must be false", spec.Name)
		}
		if a.Title != spec.Title.En || a.Title == "" {
			t.Errorf("%s: title %q, want the catalogue's %q", spec.Name, a.Title, spec.Title.En)
		}
		if spec.Writes && e.defaultOK > 0 && len(e.defaultWrote) == 0 {
			for lang, says := range map[string]*regexp.Regexp{"en": writesNothingEn, "fr": writesNothingFr} {
				if first := firstSentence(spec.Description.In(lang)); !says.MatchString(first) {
					t.Errorf("%s: its default mode writes nothing, but its %s description's first sentence does not say so: %q", spec.Name, lang, first)
				}
			}
		}
	}
}

var (
	writesNothingEn = regexp.MustCompile(`writes nothing`)
	writesNothingFr = regexp.MustCompile(`n'écrit rien|rien n'est écrit`)
)

// firstSentence returns text up to its first full stop followed by a
// space, or all of it.
func firstSentence(text string) string {
	if i := strings.Index(text, ". "); i >= 0 {
		return text[:i+1]
	}
	return text
}

// observe runs the case's tool twice with args on a copy of its vault and
// records in e what the calls did.
func observe(t *testing.T, c *conformance.Case, args json.RawMessage, e *effects, defaults bool) {
	t.Helper()
	dir := t.TempDir()
	if err := c.WriteVault(dir); err != nil {
		t.Fatal(err)
	}
	opts, err := c.Options()
	if err != nil {
		t.Fatal(err)
	}
	v, err := vaultfs.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	trees := []map[string][]byte{readTree(t, dir)}
	ok := false
	for i := range 2 {
		out, err := hostcall.Run(context.Background(), v, engine.Native(), c.Call.Tool, args, opts)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		ok = ok || (i == 0 && out.OK)
		trees = append(trees, readTree(t, dir))
	}
	wrote := !maps.EqualFunc(trees[0], trees[1], bytes.Equal)
	if defaults {
		if ok {
			e.defaultOK++
			if wrote {
				e.defaultWrote = append(e.defaultWrote, c.Name)
			}
		}
		return
	}
	e.calls++
	if ok {
		e.okCalls++
	}
	if wrote {
		e.wrote = append(e.wrote, c.Name)
	}
	if !maps.EqualFunc(trees[1], trees[2], bytes.Equal) {
		e.repeated = append(e.repeated, c.Name)
	}
	if lost := lost(trees[0], trees[1], trees[2]); lost != "" {
		e.destroyed = append(e.destroyed, c.Name+" ("+lost+")")
	}
}

func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	tree, err := conformance.ReadTree(dir)
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// lost returns a piece of content of the vault before that is in none of
// the vaults after (or ""): the test's definition of a destructive call.
//
// A file's content is its body's lines, each trimmed of blanks, blank
// lines left out, and its frontmatter's values (each item of a list), so
// that a value kept under another key (historize keeps the phase as
// phase_before_archive) or in a longer value (display gains " [archived]")
// is kept. A piece is kept when it occurs anywhere in any file after the
// call, at any path (a moved file loses nothing). The values Kessho
// stamps as its own bookkeeping are not content: last-session (the time
// of the last write of an archive) and historize's marks (archived_at,
// phase: archived, the display's " [archived]", a display it created and
// display_created_on_archive), which revive removes as it restores what
// they replaced.
func lost(before map[string][]byte, after ...map[string][]byte) string {
	var all strings.Builder
	for _, tree := range after {
		for _, p := range slices.Sorted(maps.Keys(tree)) {
			all.WriteString(normalise(tree[p]))
			all.WriteString("\n")
		}
	}
	kept := all.String()
	for _, p := range slices.Sorted(maps.Keys(before)) {
		for _, piece := range pieces(normalise(before[p])) {
			if !strings.Contains(kept, piece) {
				return p + ": " + piece
			}
		}
	}
	return ""
}

func normalise(b []byte) string {
	s := strings.TrimPrefix(string(b), "\ufeff")
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// pieces returns the pieces of content of a file's text (see lost).
func pieces(text string) []string {
	var out []string
	body := text
	if front, rest, ok := frontmatter(text); ok {
		out, body = values(front), rest
	}
	for line := range strings.SplitSeq(body, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			out = append(out, line)
		}
	}
	return out
}

// frontmatter splits text into its frontmatter's top mapping and its body.
func frontmatter(text string) (*yaml.Node, string, bool) {
	rest, ok := strings.CutPrefix(text, "---\n")
	if !ok {
		return nil, text, false
	}
	yml, body, ok := strings.Cut(rest, "\n---\n")
	var doc yaml.Node
	if !ok || yaml.Unmarshal([]byte(yml), &doc) != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, text, false
	}
	return doc.Content[0], body, true
}

// values returns the content of a frontmatter: its scalar values, as
// written, but Kessho's bookkeeping (see lost).
func values(front *yaml.Node) []string {
	field := map[string]string{}
	for i := 0; i+1 < len(front.Content); i += 2 {
		field[front.Content[i].Value] = front.Content[i+1].Value
	}
	var out []string
	for i := 0; i+1 < len(front.Content); i += 2 {
		switch k, v := front.Content[i].Value, front.Content[i+1]; {
		case k == "last-session" || k == "archived_at" || k == "display_created_on_archive",
			k == "phase" && v.Value == "archived",
			k == "display" && field["display_created_on_archive"] == "true":
		default:
			out = append(out, scalars(v)...)
		}
	}
	return out
}

// scalars returns the scalar values of n and of everything under it, a
// display's " [archived]" left out.
func scalars(n *yaml.Node) []string {
	if n.Kind == yaml.ScalarNode {
		if s := strings.TrimSuffix(n.Value, " [archived]"); s != "" {
			return []string{s}
		}
		return nil
	}
	var out []string
	for _, c := range n.Content {
		out = append(out, scalars(c)...)
	}
	return out
}

// withoutDefaults returns args without the parameters that have a
// default: the call in the tool's default mode.
func withoutDefaults(t *testing.T, spec *catalog.Tool, args json.RawMessage) json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if json.Unmarshal(args, &m) != nil || m == nil {
		return args // not an object: refused whatever its mode
	}
	for name := range m {
		if p, ok := spec.Param(name); ok && p.Default != nil {
			delete(m, name)
		}
	}
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
