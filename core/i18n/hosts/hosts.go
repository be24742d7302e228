// Package hosts holds the host variants of the core's messages: a host
// that shows them to a person, not an agent (the Obsidian plugin), names
// its commands, buttons and fields where the core's message names a tool
// or a parameter ("mem_list shows the existing ones" becomes "the “Recall
// this project” command lists them"). The CLI and MCP keep the core's
// messages as they are.
//
// A host's variant is a list of rewrites, per language, of the phrases
// that name a tool or a parameter, applied in order to a message as plain
// substring replacements (every occurrence): <host>.json, read by Go (the
// tests here check that every message of the core that names a tool or a
// parameter is rewritten) and bundled as is by the plugin
// (plugin-shim/src/catalog/host-words.ts applies it the same way to the
// refusals and warnings it shows). Texts the core writes into notes
// (a new history.md's placeholder, a worklog folder's index) are never
// shown as messages: "kept" lists them.
package hosts

import (
	"embed"
	"encoding/json"
	"fmt"
	"strings"
)

//go:embed *.json
var files embed.FS

// Rewrite replaces the phrase From by To in a message of one language.
type Rewrite struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// Words is one host's variant of the core's messages.
type Words struct {
	Host  string `json:"host"`
	About string `json:"about"`
	// Rewrites are applied in order, by language ("en", "fr").
	Rewrites map[string][]Rewrite `json:"rewrites"`
	// Kept are pieces of the texts the core writes into notes, which name
	// tools and are never shown as messages.
	Kept []string `json:"kept"`
}

// Load returns the variant of host ("obsidian").
func Load(host string) (*Words, error) {
	data, err := files.ReadFile(host + ".json")
	if err != nil {
		return nil, fmt.Errorf("no host variant %q", host)
	}
	var w Words
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return nil, fmt.Errorf("%s.json: %v", host, err)
	}
	return &w, nil
}

// Apply returns msg, a message in lang, in the host's words.
func (w *Words) Apply(lang, msg string) string {
	if lang != "fr" {
		lang = "en"
	}
	for _, r := range w.Rewrites[lang] {
		msg = strings.ReplaceAll(msg, r.From, r.To)
	}
	return msg
}
