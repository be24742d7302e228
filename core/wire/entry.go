package wire

// Entry is the first byte of an input to the wasm module's call export
// (wasm/main.go): which of the core's two handlers runs the bytes after
// it. A host writes the tag, then the input as that handler reads it.
type Entry byte

// The entries of the module's call export.
const (
	// EntryHandle runs core.Core.Handle: the input is a request, the output an
	// answer (each with a search index after a Sep, when there is one).
	EntryHandle Entry = 'c'
	// EntryStep runs hostlogic.Step: one step of a host's call, apply
	// or recovery, a StepIn's JSON in (and a round's request after a NUL),
	// a StepOut's out (and what a round handed back, after a NUL).
	EntryStep Entry = 's'
)
