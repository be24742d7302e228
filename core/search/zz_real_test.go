package search

import (
	"os"
	"testing"
)

func BenchmarkRealDecode(b *testing.B) {
	data, err := os.ReadFile("/tmp/sp_real.idx")
	if err != nil {
		b.Skip()
	}
	for b.Loop() {
		if _, err := Decode(data); err != nil {
			b.Fatal(err)
		}
	}
}
