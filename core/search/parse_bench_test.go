package search

import "testing"

// BenchmarkParse reads 10,000 notes of about 1.1 KB for the index.
func BenchmarkParse(b *testing.B) {
	for b.Loop() {
		benchNotes(10000)
	}
}
