package mcp

import (
	"embed"

	"kessho/core/catalog"
	"kessho/core/i18n"
)

// texts is the server's own text file, server.yaml.
//
//go:embed server.yaml
var texts embed.FS

// serverText is server.yaml, parsed on first use: what initialize tells
// a client about using this memory as a whole (recall at the start,
// search before asking, archive at the end), and the prompts' texts, in
// English and French.
var serverText = i18n.Load[struct {
	Instructions   catalog.Text
	Start, Archive promptText
	// The progress messages of a call (server.go): waiting for the
	// engine to start, the engine ready, and a round (a format taking
	// the tool and the round's number).
	EngineWait  catalog.Text `yaml:"engine_wait"`
	EngineReady catalog.Text `yaml:"engine_ready"`
	Round       catalog.Text `yaml:"round"`
}](texts, "server.yaml", 0)

// promptText is a prompt's texts: its title and description, its slug
// argument's description, and the message it gives, a format taking the
// slug.
type promptText struct {
	Title, Description, Slug, Text catalog.Text
}
