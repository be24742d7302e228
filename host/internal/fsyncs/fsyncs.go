// Package fsyncs counts the fsyncs of the process's vaults (host/vaultfs
// counts each one it makes), for the tests and benchmarks that say how
// many a call made: the difference of Count before and after it, which
// RATIONALE.md ("Why does a one-file plan need no journal?") says the
// minimum of. Nothing in a production build reads the count.
package fsyncs

import "sync/atomic"

var n atomic.Int64

// Add counts one fsync.
func Add() { n.Add(1) }

// Count returns how many fsyncs were counted so far (files and folders).
func Count() int64 { return n.Load() }
