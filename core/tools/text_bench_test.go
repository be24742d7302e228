package tools

import (
	"testing"

	"github.com/kessho/kessho/core/fault"
)

// BenchmarkTextParse is what a tool's first call in an instance pays for
// its texts: parsing its text file (mem_update_phase's). Later calls pay
// nothing (the parsed file is kept); compare with a whole call,
// BenchmarkUpdatePhaseCall.
func BenchmarkTextParse(b *testing.B) {
	for b.Loop() {
		phase := loadText[struct {
			OneLine, None, Absent, Already, Unchanged, Removed, SetTo fault.Msg
		}]("update_phase.yaml")
		if phase().Msg.SetTo.Fr == "" {
			b.Fatal("no text")
		}
	}
}
