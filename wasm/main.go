//go:build wasip1

// Command wasm is Kessho's core as a WebAssembly reactor. It exports two
// functions besides its memory (and the reactor's _initialize) and does
// nothing else: no I/O, no clock, no environment.
//
//	alloc(n uint32) uint32       a buffer of n bytes the host may write into
//	call(ptr, n uint32) uint64   runs the n bytes at ptr, the last alloc's
//	                             buffer; returns the answer as ptr<<32 | len
//
// The input's first byte (a wire.Entry) names the handler of the bytes
// after it:
//
//	'c'  Core.Handle: a request, its answer (the Go host's wasm engine)
//	's'  hostlogic.Step: one step of a call, run whole as steps (the plugin)
//
// The module frees what it hands out: call drops its input buffer, and the
// next alloc or call drops the answer, so the host reads (or copies) an
// answer before it calls again. A call answers 0 when the host broke the
// protocol (not the last alloc's buffer, no tag, an unknown one).
//
// Build it as a reactor (the host calls _initialize once; main never runs):
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -trimpath -ldflags="-s -w" -o host/engine/module/kessho.wasm ./wasm
//
// # Notes
//
// Two exports, not one: the host must write its input into the module's
// memory before the module runs it, and only the module's allocator (Go's
// heap) knows where there is room; one export that also handed out buffers
// would be alloc behind a flag.
//
// The buffers handed to the host are held in package variables until the
// module drops them, so the garbage collector cannot reclaim one while the
// host reads or writes it (Go's collector does not move objects).
//
// Every export ends with runtime.Gosched: between calls a reactor never runs
// its background goroutines, and without that yield the garbage collector
// stalls and the heap grows without bound.
package main

import (
	"runtime"
	"unsafe"

	"github.com/kessho/kessho/core"
	"github.com/kessho/kessho/core/hostlogic"
	"github.com/kessho/kessho/core/wire"
)

// input is the last alloc's buffer, until call runs it; answer is the last
// call's answer, until the next alloc or call.
var input, answer []byte

// addr is b's address in the module's memory.
func addr(b []byte) uint32 { return uint32(uintptr(unsafe.Pointer(unsafe.SliceData(b)))) }

// held returns b, or, when it is empty, an empty slice with an address of
// its own (a zero-length slice may share the address of any other).
func held(b []byte) []byte {
	if len(b) == 0 {
		return make([]byte, 1)[:0]
	}
	return b
}

//go:wasmexport alloc
func alloc(n uint32) uint32 {
	answer = nil // read by now; dropped before the new buffer is made
	input = held(make([]byte, n))
	ptr := addr(input)
	runtime.Gosched()
	return ptr
}

//go:wasmexport call
func call(ptr, n uint32) uint64 {
	in := input
	input, answer = nil, nil
	out := run(in, ptr, n)
	if out == nil {
		// The host broke the protocol; answer with nothing rather than read
		// memory the module never gave it.
		runtime.Gosched()
		return 0
	}
	answer = held(out)
	res := uint64(addr(answer))<<32 | uint64(len(answer))
	runtime.Gosched()
	return res
}

// instance is the core this module instance runs: one an instance, as
// the host makes instances (a fresh instance starts with a fresh core).
var instance = core.New()

// run runs the n bytes at ptr, which must be in, by their entry's handler;
// nil when they are not in, or the entry is no handler's.
func run(in []byte, ptr, n uint32) []byte {
	if in == nil || addr(in) != ptr || n < 1 || uint32(len(in)) < n {
		return nil
	}
	body := in[1:n]
	switch wire.Entry(in[0]) {
	case wire.EntryHandle:
		return instance.Handle(body)
	case wire.EntryStep:
		return hostlogic.Step(body, instance.HandleAnswer)
	}
	return nil
}

func main() {}
