package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestReport: a bench output of a few runs becomes the tables of
// testdata/report.md: medians (3, 4, 5 ms → 4), ms with three figures, the
// 50k ÷ 1k ratio marked ✗ over 1.3 for a one-project call, wasm ÷ native,
// fsyncs, a missing size as –, the CLI's wall, CPU and peak memory, and
// the other benchmarks named after their package, and the budgets
// checked (met, not met; a budget without its figures left out),
// and the benchmarks that failed (the innermost only, with its message).
func TestReport(t *testing.T) {
	in, err := os.Open("testdata/bench.out")
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	res, err := Parse(in)
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	Write(&got, res, Env{Date: "2026-12-01", Cores: 2, Go: "go1.99"})
	want, err := os.ReadFile("testdata/report.md")
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != string(want) {
		t.Errorf("report:\n%s\nwant:\n%s", got.String(), want)
	}
}

func TestMedian(t *testing.T) {
	res, err := Parse(strings.NewReader("BenchmarkX-8 1 4 ns/op\nBenchmarkX-8 1 1 ns/op\nBenchmarkX-8 1 2 ns/op\nBenchmarkX-8 1 10 ns/op 3 peak-MB\n"))
	if err != nil {
		t.Fatal(err)
	}
	if v, n := res.Median("BenchmarkX", "ns/op"); v != 3 || n != 4 {
		t.Errorf("median of 1, 2, 4, 10: %v of %d runs, want 3 of 4", v, n)
	}
	if v, n := res.Median("BenchmarkX", "peak-MB"); v != 3 || n != 1 {
		t.Errorf("peak-MB: %v of %d, want 3 of 1", v, n)
	}
}

// TestSplice: only the part between the markers changes.
func TestSplice(t *testing.T) {
	doc := "# Performance\n\nBy hand.\n\n" + BeginMarker + "\nold tables\n" + EndMarker + "\n\n## Notes\nBy hand too.\n"
	got, err := Splice(doc, "new tables\n")
	if err != nil {
		t.Fatal(err)
	}
	want := "# Performance\n\nBy hand.\n\n" + BeginMarker + "\nnew tables\n" + EndMarker + "\n\n## Notes\nBy hand too.\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if _, err := Splice("no markers", "x"); err == nil {
		t.Error("a document without markers was accepted")
	}
}
