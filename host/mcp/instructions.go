package mcp

import (
	"embed"

	"kessho/core/catalog"
	"kessho/core/i18n"
)

// texts is the server's own text file: its instructions.
//
//go:embed instructions.yaml
var texts embed.FS

// serverText is instructions.yaml: what initialize tells a client about
// using this memory as a whole (recall at the start, search before
// asking, archive at the end), in English and French, parsed on first
// use.
var serverText = i18n.Load[struct{ Instructions catalog.Text }](texts, "instructions.yaml", 0)
