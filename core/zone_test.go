package core

import (
	"testing"
	"time"
)

// TestZoneLoadedOnce: the time zone a request names is read and parsed
// once per process, not on every call (on wasm, from the embedded tzdata,
// it cost about a tenth of a small call); a name that is no zone is
// refused every time and never kept.
func TestZoneLoadedOnce(t *testing.T) {
	loads := 0
	saved := loadLocation
	loadLocation = func(name string) (*time.Location, error) {
		loads++
		return saved(name)
	}
	t.Cleanup(func() { loadLocation = saved })
	req := func(tz string) []byte {
		return []byte(`{"tool":"mem_list","args":{},"now":"2026-11-30T10:15:00+01:00","tz":"` + tz + `","lang":"en"}`)
	}
	for range 3 {
		if ans := string(Handle(req("America/Montevideo"))); ans[:10] == `{"ok":fals` {
			t.Fatalf("a valid zone refused: %s", ans)
		}
	}
	if loads != 1 {
		t.Errorf("America/Montevideo loaded %d times in three calls; want once", loads)
	}
	loads = 0
	for range 2 {
		if ans := string(Handle(req("Mars/Olympus"))); ans[:10] != `{"ok":fals` {
			t.Fatalf("a made-up zone accepted: %s", ans)
		}
	}
	if loads != 2 {
		t.Errorf("a made-up zone looked up %d times in two calls; want each time (never kept)", loads)
	}
}
