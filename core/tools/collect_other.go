//go:build !wasm

package tools

// collect does nothing natively: Go's collector runs beside the core on
// other threads (collect_wasm.go).
func collect() {}
