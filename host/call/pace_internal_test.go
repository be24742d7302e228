package call

import (
	"testing"
	"time"
)

// TestPaceSizesBatchesByTime: the batches of a call are small
// (firstBatch) until one was timed; each next one is sized to take an
// eighth of the deadline by the text the last round that stored nothing
// read and the time it took, between minBatch and the largest (a round
// that stored an index times its hand-back instead); Hand is asked once
// half the deadline passed since the index was last stored. No
// deadline: the largest batch, never Hand.
func TestPaceSizesBatchesByTime(t *testing.T) {
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	p := newPace(clock, 10*time.Second, 4<<20)
	if got := p.first(); got != firstBatch {
		t.Fatalf("first batch %d; want %d", got, firstBatch)
	}
	steps := []struct {
		took   time.Duration
		asked  int64 // the need's text
		stored bool
		batch  int64
		hand   bool
	}{
		{500 * time.Millisecond, firstBatch, true, firstBatch, false}, // none timed yet; stored
		{250 * time.Millisecond, 1 << 20, false, 1280 << 10, false},   // 256 KiB in 0.25 s: 1.25 MiB in 1.25 s
		{2 * time.Second, 256 << 10, false, 640 << 10, false},         // 1 MiB in 2 s
		{5 * time.Second, 1 << 10, true, 640 << 10, false},            // 256 KiB in 5 s, stored: a hand-back of 4.5 s, the rate kept
		{time.Millisecond, 1 << 20, false, 1250 << 10, false},         // 1 KiB in 1 ms
		{2500 * time.Millisecond, 1 << 10, false, 512 << 10, false},   // 1 MiB in 2.5 s
		{2500 * time.Millisecond, 1 << 10, false, minBatch, true},     // 1 KiB in 2.5 s; half the deadline since the store
	}
	for i, s := range steps {
		now = now.Add(s.took)
		batch, hand := p.next(s.asked, s.stored)
		if batch != s.batch || hand != s.hand {
			t.Errorf("step %d: batch %d, hand %v; want %d, %v", i, batch, hand, s.batch, s.hand)
		}
	}
	none := newPace(clock, 0, 0)
	now = now.Add(time.Hour)
	if b, hand := none.next(1, false); b != 4<<20 || hand || none.first() != firstBatch {
		t.Errorf("no deadline: batch %d, hand %v, first %d", b, hand, none.first())
	}
}

// TestPaceLastChance: the last batch that can land before the deadline
// with a hand-back after it asks for one (Hand), once a call: a round
// taken a quarter longer than the rate says (here 1 s a MiB), a
// hand-back half again as long as the last one measured (0.2 s beyond
// its text: 0.3 s), and at least half the first round (1 s: 0.5 s); a
// call with time to spare is not asked early.
func TestPaceLastChance(t *testing.T) {
	paceSteps(t, 1<<20, []paceStep{
		{time.Second, firstBatch, true, false},          // 1 s: the first batch need (256 KiB next)
		{200 * time.Millisecond, 1 << 20, false, false}, // 1.2 s: 256 KiB in 0.2 s, 0.8 s a MiB: batches of 1 MiB
		{800 * time.Millisecond, 1 << 20, false, false}, // 2.0 s
		{800 * time.Millisecond, 1 << 20, false, false}, // 2.8 s
		{800 * time.Millisecond, 1 << 20, false, false}, // 3.6 s
		{800 * time.Millisecond, 1 << 20, false, false}, // 4.4 s
		{800 * time.Millisecond, 1 << 20, false, false}, // 5.2 s
		{800 * time.Millisecond, 1 << 20, false, true},  // 6.0 s: half the deadline since the store
		{time.Second, 1 << 20, true, false},             // 7.0 s: stored, a hand-back of 0.2 s; 3 s left for two rounds of 1 s and 0.5 s
		{800 * time.Millisecond, 1 << 20, false, true},  // 7.8 s: 2.2 s left: the last batch
		{time.Second, 1 << 20, true, false},             // 8.8 s: asked once
	})
}

// paceStep is a batch need of a pace test: the time since the last one,
// the text it asks for, whether the index it handed back was stored, and
// whether the next request asks for a hand-back.
type paceStep struct {
	took   time.Duration
	bytes  int64
	stored bool
	hand   bool
}

// paceSteps runs steps on a pace of a 10 s deadline whose largest batch
// is largest: every batch after the first is that (the steps' rate sizes
// it larger), and Hand is asked as each step says.
func paceSteps(t *testing.T, largest int64, steps []paceStep) {
	t.Helper()
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	p := newPace(func() time.Time { return now }, 10*time.Second, largest)
	for i, s := range steps {
		now = now.Add(s.took)
		if batch, hand := p.next(s.bytes, s.stored); hand != s.hand || batch != largest && i > 0 {
			t.Errorf("step %d (%v since the start): batch %d, hand %v; want %d, %v", i, now.Sub(p.start), batch, hand, largest, s.hand)
		}
	}
}

// TestPaceLastBatchFits: the last batch is sized to end, with its
// hand-back, before the deadline: 1.2 s left after a hand-back taken as
// 0.5 s (half a first round of 1 s) is 1.2 MiB at 1 s a MiB, where the
// time-sized batch is 1.5625 MiB.
func TestPaceLastBatchFits(t *testing.T) {
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	p := newPace(clock, 10*time.Second, 4<<20)
	now = now.Add(time.Second)
	p.next(firstBatch, false)
	now = now.Add(200 * time.Millisecond) // 256 KiB in 0.2 s: 0.8 s a MiB
	if batch, hand := p.next(9088<<10, false); batch != 1600<<10 || hand {
		t.Fatalf("batch %d, hand %v; want %d, false", batch, hand, 1600<<10)
	}
	now = now.Add(7100 * time.Millisecond) // 8.875 MiB at 0.8 s a MiB: at 8.3 s
	batch, hand := p.next(1<<20, false)
	if want := int64(1258291); !hand || batch < want-1024 || batch > want+1024 {
		t.Fatalf("batch %d, hand %v; want about %d, true", batch, hand, want)
	}
}

// TestPaceLastAfterCheapHand: a call whose first round took 4 s (a large
// stored index decoded) and whose only hand-back measured was cheap (its
// first batch's, a delta: 0.05 s beyond its text) takes the last one,
// the whole index, as at least half that first round: it asks at 6.65 s,
// not at 7.9 s, after which the whole index no longer lands.
func TestPaceLastAfterCheapHand(t *testing.T) {
	paceSteps(t, 1<<20, []paceStep{
		{4 * time.Second, firstBatch, true, false},      // 4.0 s: the first batch need
		{200 * time.Millisecond, 1 << 20, false, false}, // 4.2 s: 256 KiB in 0.2 s, 0.8 s a MiB
		{850 * time.Millisecond, 1 << 20, true, false},  // 5.05 s: stored, a hand-back of 0.05 s
		{800 * time.Millisecond, 1 << 20, false, false}, // 5.85 s: 2.15 s left after a hand-back of 2 s
		{800 * time.Millisecond, 1 << 20, false, true},  // 6.65 s: 1.35 s: the last batch
	})
}
