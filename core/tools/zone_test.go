package tools

// The zone tests load Europe/Paris from Go's embedded copy when the
// machine has no zoneinfo, as the core does (core/handle.go): they run
// everywhere, never skip.
import _ "time/tzdata"
