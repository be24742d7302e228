package wire

// Entry is the first byte of an input to the wasm module's call export
// (wasm/main.go): which of the core's three handlers runs the bytes after
// it. A host writes the tag, then the input as that handler reads it.
type Entry byte

// The entries of the module's call export.
const (
	// EntryHandle runs core.Core.Handle: the input is a request, the output an
	// answer (each with a search index after a Sep, when there is one).
	EntryHandle Entry = 'c'
	// EntryHost runs hostlogic.Handle: a HostRequest's JSON in, its
	// answer out (docs/HOSTS.md, section 5).
	EntryHost Entry = 'h'
	// EntryRound runs hostlogic.Round: one round of a call in one call
	// into the module (its input and output framed as Round says).
	EntryRound Entry = 'r'
	// EntryStep runs hostlogic.Step: one step of a host's apply or
	// recovery, a StepIn's JSON in, a StepOut's out.
	EntryStep Entry = 's'
)
