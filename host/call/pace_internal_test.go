package call

import (
	"testing"
	"time"
)

// TestPaceSizesBatchesByTime: the batches of a call are small
// (firstBatch) until one was timed; each next one is sized to take an eighth of the deadline
// by the text the last one read and the time it took, between minBatch
// and the largest; Hand is asked once half the deadline passed since the
// index was last stored. No deadline: the largest batch, never Hand.
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
		{5 * time.Second, 1 << 10, true, minBatch, false},             // 256 KiB in 5 s: 64 KiB; stored
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

// TestPaceLastChance: a call whose first round took half its deadline (a
// large stored index decoded) asks for the index once more at the last
// batch need from which a hand-back still lands before the deadline, and
// only once; a call with time to spare is not asked early.
func TestPaceLastChance(t *testing.T) {
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	p := newPace(clock, 10*time.Second, 4<<20)
	// Each step: the time since the last need, and whether Hand is asked.
	steps := []struct {
		took   time.Duration
		stored bool
		hand   bool
	}{
		{4 * time.Second, true, false},         // the first need at 4 s: a hand-back taken as 2 s
		{800 * time.Millisecond, false, false}, // 4.8 s: another batch (1.25 s) still leaves room after it
		{800 * time.Millisecond, false, true},  // 5.6 s: 5.6 + 1.25 + 2 lands, one batch later would not
		{800 * time.Millisecond, false, false}, // 6.4 s: asked once
		{3 * time.Second, false, true},         // 9.4 s: the half-deadline rule's (5.4 s since the store), not a last chance
	}
	for i, s := range steps {
		now = now.Add(s.took)
		if _, hand := p.next(1<<20, s.stored); hand != s.hand {
			t.Errorf("step %d (%v since the start): hand %v; want %v", i, now.Sub(p.start), hand, s.hand)
		}
	}
}
