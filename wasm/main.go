//go:build wasip1

// Command wasm is Kessho's core as a WebAssembly reactor. It exports five
// functions and does nothing else: no I/O, no clock, no environment.
//
//	alloc(n uint32) uint32            a buffer of n bytes the host may write into
//	free(ptr uint32)                  releases a buffer from alloc or handle
//	handle(ptr, n uint32) uint64      runs core.Handle on the n bytes at ptr;
//	                                  returns the answer as ptr<<32 | len
//	handle_host(ptr, n uint32) uint64 the same with hostlogic.Handle: the
//	                                  decisions a host makes (docs/HOSTS.md)
//	round(ptr, n uint32) uint64       the same with hostlogic.Round: one
//	                                  round of a call in one call (the plugin)
//
// Build it as a reactor (the host calls _initialize once; main never runs):
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -trimpath -ldflags="-s -w" -o host/engine/module/kessho.wasm ./wasm
//
// # Notes
//
// Every buffer handed to the host stays pinned in a map until the host frees
// it, so the garbage collector cannot move or reclaim it while the host reads.
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
)

// pinned holds every buffer the host may still read or write, by address.
var pinned = map[uint32][]byte{}

func pin(b []byte) uint32 {
	if len(b) == 0 {
		b = make([]byte, 1) // a zero-length slice has no address of its own
		b = b[:0]
	}
	ptr := uint32(uintptr(unsafe.Pointer(unsafe.SliceData(b))))
	pinned[ptr] = b
	return ptr
}

//go:wasmexport alloc
func alloc(n uint32) uint32 {
	ptr := pin(make([]byte, n))
	runtime.Gosched()
	return ptr
}

//go:wasmexport free
func free(ptr uint32) {
	delete(pinned, ptr)
	runtime.Gosched()
}

//go:wasmexport handle
func handle(ptr, n uint32) uint64 { return serve(ptr, n, core.Handle) }

//go:wasmexport handle_host
func handleHost(ptr, n uint32) uint64 { return serve(ptr, n, hostlogic.Handle) }

//go:wasmexport round
func round(ptr, n uint32) uint64 {
	return serve(ptr, n, func(in []byte) []byte {
		out, err := hostlogic.Round(in, core.HandleAnswer)
		if err != nil {
			return nil
		}
		return out
	})
}

// serve runs f on the n bytes at ptr and pins its answer.
func serve(ptr, n uint32, f func([]byte) []byte) uint64 {
	in, ok := pinned[ptr]
	if !ok || uint32(len(in)) < n {
		// The host broke the protocol; answer with nothing rather than read
		// memory the module never gave it.
		runtime.Gosched()
		return 0
	}
	out := f(in[:n])
	if out == nil {
		// f refused its input (round's): the host broke the protocol.
		runtime.Gosched()
		return 0
	}
	res := uint64(pin(out))<<32 | uint64(len(out))
	runtime.Gosched()
	return res
}

func main() {}
