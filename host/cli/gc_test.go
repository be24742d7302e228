package cli

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"testing"
	"time"
)

// TestCollectLate: collection is off while the heap is small, and back
// on as Go's default once it has grown past the bound.
func TestCollectLate(t *testing.T) {
	t.Cleanup(func() {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
	})
	var keep [][]byte
	runtime.GC() // no garbage left to free that would offset what the test allocates
	done := collectLate(32<<20 + heapNow())
	time.Sleep(20 * time.Millisecond)
	select {
	case <-done:
		t.Fatal("collection back on while the heap is small")
	default:
	}
	if prev := debug.SetGCPercent(-1); prev != -1 {
		t.Fatalf("GC percent %d while the heap is small, want off (-1)", prev)
	}
	for range 96 {
		keep = append(keep, make([]byte, 1<<20))
	}
	select {
	case <-done:
	case <-time.After(2 * time.Minute): // a hang
		t.Fatal("collection still off with the heap past the bound")
	}
	if prev := debug.SetGCPercent(100); prev != lateGCPercent {
		t.Errorf("GC percent %d once the heap grew, want %d", prev, lateGCPercent)
	}
	if limit := debug.SetMemoryLimit(-1); limit != lateLimit {
		t.Errorf("memory limit %d once the heap grew, want %d", limit, lateLimit)
	}
	_ = keep
}

// TestOneShot: every command but the MCP server and a script runs once.
func TestOneShot(t *testing.T) {
	for args, want := range map[string]bool{
		"search|deploy":           true,
		"--vault|v|call|mem_list": true,
		"mcp":                     false,
		"--lang|fr|mcp|--http|:1": false,
		"script":                  false,
		"":                        false,
	} {
		var a []string
		if args != "" {
			a = strings.Split(args, "|")
		}
		if got := oneShot(a); got != want {
			t.Errorf("oneShot(%q) = %v, want %v", a, got, want)
		}
	}
}

// heapNow is the heap's objects now, in bytes.
func heapNow() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
