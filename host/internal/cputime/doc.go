// Package cputime measures the CPU time a process has used, for the
// benchmarks: a machine's other load disturbs it far less than the wall
// time, so before/after pairs compare what a call costs rather than how
// long it waited for a CPU.
package cputime
