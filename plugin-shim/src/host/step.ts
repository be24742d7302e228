// The messages of a step (core/wire's StepIn, StepOut, IO, IOResult), as
// wire.gen.ts has them from the Go types.

export type { IO, IOError, IOResult, StepEnd, StepIn, StepOut, StepStart } from "../wire.gen";
