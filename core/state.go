package core

import "github.com/kessho/kessho/core/tools"

// engine is what the tools keep between calls (tools.State: the warm
// search index), one for the process: today the process is the engine
// instance (one wasm instance, or the native engine's process). It is the
// one package-level mutable value of the core's tools, and goes when
// Handle takes the State from the engine instance that calls it
// (TOOLS-NOTES.md, "The state a Handle keeps").
var engine = tools.NewState()
