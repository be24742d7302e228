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

func BenchmarkRealQuery(b *testing.B) {
	data, _ := os.ReadFile("/tmp/sp_real.idx")
	x, err := Decode(data)
	if err != nil {
		b.Fatal(err)
	}
	q := Terms("deploy retry webhook")
	b.ReportMetric(float64(len(x.Search(q, func(*Meta) bool { return true }))), "hits")
	for b.Loop() {
		x.Top(q, func(*Meta) bool { return true }, 10)
	}
}
