package mcp

import (
	"embed"

	"github.com/kessho/kessho/core/catalog"
	"github.com/kessho/kessho/core/i18n"
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
	// EngineInterim says a call runs on the native engine while the
	// sandbox starts (a progress message, and the server's log once);
	// SandboxReady, in the log, that later calls run on the sandbox;
	// SandboxAbsent, in the log, that this binary holds no sandbox, so
	// every call runs natively, and how to get one.
	EngineInterim catalog.Text `yaml:"engine_interim"`
	SandboxReady  catalog.Text `yaml:"sandbox_ready"`
	SandboxAbsent catalog.Text `yaml:"sandbox_absent"`
	// Running is the progress message a call still running gets every
	// few seconds (progressEvery): a format taking the tool and the
	// seconds since the call began.
	Running catalog.Text `yaml:"running"`
	// The resources' texts (resources.go).
	Resources struct {
		Context, History, Archive resourceText
		// WrongKind says a URI names a domain as a project or the
		// reverse: a format taking the slug, its kind and the right URI.
		WrongKind catalog.Text `yaml:"wrong_kind"`
		// NoFile says the file a URI names is missing or not text: a
		// format taking its path.
		NoFile catalog.Text `yaml:"no_file"`
	}
	// Recovered is the log message of a call that finished a plan a
	// crash had left half applied (recovery.go): a format taking the
	// number of plans and the files they touched.
	Recovered catalog.Text
	// Kinds names the kinds "project" and "domain".
	Kinds map[string]catalog.Text
}](texts, "server.yaml", 0)

// promptText is a prompt's texts: its title and description, its slug
// argument's description, and the message it gives, a format taking the
// slug.
type promptText struct {
	Title, Description, Slug, Text catalog.Text
}

// resourceText is a resource template's texts: its title and description
// (formats taking the kind, "project" or "domain"), and the title of one
// of its resources in resources/list (a format taking the slug, and for
// an archive its name).
type resourceText struct {
	Title, Description, Item catalog.Text
}
