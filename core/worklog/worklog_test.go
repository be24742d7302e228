package worklog

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// mustDate is ParseDate for constants; it panics on a bad date.
func mustDate(s string) Date {
	d, err := ParseDate(s)
	if err != nil {
		panic(err)
	}
	return d
}

func TestWeekOf(t *testing.T) {
	tests := []struct{ day, week, start, end string }{
		{"2026-11-30", "2026-W49", "2026-11-30", "2026-12-06"}, // a Monday
		{"2026-11-29", "2026-W48", "2026-11-23", "2026-11-29"}, // a Sunday
		{"2026-11-26", "2026-W48", "2026-11-23", "2026-11-29"},
		{"2026-12-31", "2026-W53", "2026-12-28", "2027-01-03"}, // 2026 has 53 weeks
		{"2027-01-01", "2026-W53", "2026-12-28", "2027-01-03"}, // the year boundary
		{"2027-01-03", "2026-W53", "2026-12-28", "2027-01-03"},
		{"2027-01-04", "2027-W01", "2027-01-04", "2027-01-10"},
		{"2025-12-29", "2026-W01", "2025-12-29", "2026-01-04"}, // week 1 starts in December
		{"2026-01-01", "2026-W01", "2025-12-29", "2026-01-04"},
		{"2025-12-28", "2025-W52", "2025-12-22", "2025-12-28"},
		{"2020-12-31", "2020-W53", "2020-12-28", "2021-01-03"},
		{"2021-01-01", "2020-W53", "2020-12-28", "2021-01-03"},
		{"2024-02-29", "2024-W09", "2024-02-26", "2024-03-03"}, // leap day
		{"2026-03-29", "2026-W13", "2026-03-23", "2026-03-29"}, // DST starts in Europe
		{"2026-10-25", "2026-W43", "2026-10-19", "2026-10-25"}, // DST ends in Europe
	}
	for _, tt := range tests {
		w := WeekOf(mustDate(tt.day))
		if w.String() != tt.week || w.Start().String() != tt.start || w.End().String() != tt.end {
			t.Errorf("WeekOf(%s) = %s %s..%s; want %s %s..%s", tt.day, w, w.Start(), w.End(), tt.week, tt.start, tt.end)
		}
		days := w.days()
		if days[0] != w.Start() || days[6] != w.End() || days[0].weekday() != time.Monday || days[6].weekday() != time.Sunday {
			t.Errorf("WeekOf(%s).days() = %v", tt.day, days)
		}
		if !w.contains(mustDate(tt.day)) || w.contains(w.End().AddDays(1)) || w.contains(w.Start().AddDays(-1)) {
			t.Errorf("WeekOf(%s).contains is wrong", tt.day)
		}
	}
}

// TestWeekOfEveryDay checks, for every day of 1999–2041, that the week
// holds it, starts on a Monday, lasts seven calendar days, and that
// consecutive weeks follow each other with numbers that restart at 1.
func TestWeekOfEveryDay(t *testing.T) {
	d := mustDate("1999-01-01")
	prev := WeekOf(d)
	for d.Year < 2042 {
		w := WeekOf(d)
		if !w.contains(d) || w.Start().weekday() != time.Monday || w.Start().AddDays(6) != w.End() {
			t.Fatalf("WeekOf(%s) = %s from %s", d, w, w.Start())
		}
		if w != prev {
			ok := w.Start() == prev.Start().AddDays(7) &&
				(w.Year == prev.Year && w.Num == prev.Num+1 || w.Year == prev.Year+1 && w.Num == 1 && (prev.Num == 52 || prev.Num == 53))
			if !ok {
				t.Fatalf("%s follows %s", w, prev)
			}
			prev = w
		}
		d = d.AddDays(1)
	}
}

func TestDateOfZone(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	// 22:30 UTC on Sunday 2026-03-29 is 00:30 on Monday in Paris (after
	// the clocks went forward): the week is the Monday's.
	now := time.Date(2026, 3, 29, 22, 30, 0, 0, time.UTC).In(paris)
	if w := WeekOf(DateOf(now)); w.String() != "2026-W14" || w.Start().String() != "2026-03-30" {
		t.Errorf("week of %v = %s from %s", now, w, w.Start())
	}
}

func TestParseDate(t *testing.T) {
	for _, bad := range []string{"", "2026-1-30", "2026-11-31", "2026-02-29", "26-11-30", "2026/11/30", "2026-11-30T10:00", "２026-11-30", "+026-11-30"} {
		if _, err := ParseDate(bad); err == nil {
			t.Errorf("ParseDate(%q) accepted", bad)
		}
	}
	if d, err := ParseDate("2028-02-29"); err != nil || d.String() != "2028-02-29" {
		t.Errorf("ParseDate(2028-02-29) = %v, %v", d, err)
	}
}

func TestParseName(t *testing.T) {
	tests := []struct {
		name, date, time, rest string
		ok                     bool
	}{
		{"2026-11-30-10h15-alpha-premier-jet.md", "2026-11-30", "10:15", "alpha-premier-jet.md", true},
		{"2026-11-30-10H15-alpha.md", "2026-11-30", "10:15", "alpha.md", true},
		{"2026-11-30-alpha-kickoff.md", "2026-11-30", "", "alpha-kickoff.md", true},
		{"2026-11-30.md", "2026-11-30", "", ".md", true},
		{"2026-11-30_notes.md", "2026-11-30", "", "notes.md", true},
		{"2026-11-30-25h00-x.md", "2026-11-30", "", "25h00-x.md", true}, // not a time
		{"2026-11-30-10h155-x.md", "2026-11-30", "", "10h155-x.md", true},
		{"2026-11-301.md", "", "", "", false},
		{"2026-13-01-x.md", "", "", "", false},
		{"notes.md", "", "", "", false},
		{"x2026-11-30.md", "", "", "", false},
	}
	for _, tt := range tests {
		s, ok := ParseName(tt.name)
		if ok != tt.ok || ok && (s.Date.String() != tt.date || s.Time != tt.time || s.Rest != tt.rest) {
			t.Errorf("ParseName(%q) = %+v %v; want %s %q %q %v", tt.name, s, ok, tt.date, tt.time, tt.rest, tt.ok)
		}
	}
}

func TestQuarters(t *testing.T) {
	for h, want := range map[float64]int{7: 28, 7.25: 29, 0.25: 1, 24: 96, 7.5: 30} {
		if q, ok := Quarters(h); !ok || q != want {
			t.Errorf("Quarters(%v) = %d %v", h, q, ok)
		}
	}
	for _, h := range []float64{7.1, 0.3, 1e-9, 7.125} {
		if _, ok := Quarters(h); ok {
			t.Errorf("Quarters(%v) accepted", h)
		}
	}
}

func TestSplit(t *testing.T) {
	tests := []struct {
		total  int
		shares []share
		want   []int
	}{
		{28, []share{{"a", 1}}, []int{28}},
		{28, []share{{"a", 1}, {"b", 1}}, []int{14, 14}},
		// 28·2/3 = 18.67, 28/3 = 9.33: the larger remainder gets the quarter.
		{28, []share{{"a", 2}, {"b", 1}}, []int{19, 9}},
		// 28/3 each, remainder 1 each: one quarter left, to the smaller key.
		{28, []share{{"c", 1}, {"b", 1}, {"a", 1}}, []int{9, 9, 10}},
		// 30/4 = 7.5 each... two quarters left among equal remainders.
		{30, []share{{"d", 1}, {"c", 1}, {"b", 1}, {"a", 1}}, []int{7, 7, 8, 8}},
		// 29·3/5 = 17.4, 29·2/5 = 11.6: the remainder decides, not the sessions.
		{29, []share{{"a", 3}, {"b", 2}}, []int{17, 12}},
		// Equal remainders (28·1/4=7, 28·3/4=21): nothing left over.
		{28, []share{{"a", 1}, {"b", 3}}, []int{7, 21}},
		// 2 quarters, 3 projects (1, 2, 1 sessions) → 0.5, 1, 0.5; remainders
		// 2, 0, 2 out of 4: the two one-session projects tie; keys decide.
		{2, []share{{"x", 1}, {"y", 2}, {"w", 1}}, []int{0, 1, 1}},
		{28, nil, []int{}},
		{0, []share{{"a", 1}}, []int{0}},
	}
	for _, tt := range tests {
		got := split(tt.total, tt.shares)
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("split(%d, %v) = %v; want %v", tt.total, tt.shares, got, tt.want)
		}
	}
}

// TestSplitProperties: for random days, the parts sum exactly to the
// amplitude, each is a whole number of quarters within one quarter of its
// exact share, and the split does not depend on the order of the shares.
func TestSplitProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20000; i++ {
		total := 1 + r.IntN(96) // 0.25 h to 24 h
		n := 1 + r.IntN(8)
		shares := make([]share, n)
		sessions := 0
		for j := range shares {
			shares[j] = share{Key: fmt.Sprintf("p%02d", r.IntN(50)*100+j), Sessions: 1 + r.IntN(6)}
			sessions += shares[j].Sessions
		}
		parts := split(total, shares)
		sum := 0
		byKey := map[string]int{}
		for j, p := range parts {
			sum += p
			exact := float64(total*shares[j].Sessions) / float64(sessions)
			if float64(p) < exact-1 || float64(p) > exact+1 || p < 0 {
				t.Fatalf("split(%d, %v) = %v: part %d far from %v", total, shares, parts, j, exact)
			}
			if h := hoursOf(p); h*4 != float64(p) {
				t.Fatalf("hoursOf(%d) = %v is not a whole number of quarters", p, h)
			}
			byKey[shares[j].Key] = p
		}
		if sum != total {
			t.Fatalf("split(%d, %v) = %v sums to %d", total, shares, parts, sum)
		}
		shuffled := append([]share(nil), shares...)
		r.Shuffle(len(shuffled), func(a, b int) { shuffled[a], shuffled[b] = shuffled[b], shuffled[a] })
		for j, p := range split(total, shuffled) {
			if byKey[shuffled[j].Key] != p {
				t.Fatalf("split depends on order: %v vs %v", shares, shuffled)
			}
		}
	}
}

// TestKitContext: the memory-kit's worklogs context says which week was
// last persisted ("Dernier relevé : 2026-S47."); a later week moves it,
// with phase and last-session, an earlier one leaves the file alone, and
// a context without the line gets one at its end, in its line ending.
func TestKitContext(t *testing.T) {
	r := KitRecord{Week: WeekOf(Date{Year: 2026, Month: 11, Day: 25}), Amplitude: 7, Now: time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)}
	const fm = "---\ndomain: worklogs\n---\n# Worklogs — contexte\n\n"
	const fm48 = "---\ndomain: worklogs\nphase: dernier relevé 2026-S48\nlast-session: 2026-11-30\n---\n# Worklogs — contexte\n\n"
	for _, c := range []struct{ name, text, want string }{
		{"later week", fm + "Dernier relevé : 2026-S47.\n", fm48 + "Dernier relevé : 2026-S48.\n"},
		{"any case, CRLF", "Ici.\r\n- dernier RELEVÉ 2025-S52 (fin)\r\nFin.\r\n",
			"---\r\nphase: dernier relevé 2026-S48\r\nlast-session: 2026-11-30\r\n---\r\nIci.\r\n- dernier RELEVÉ 2026-S48 (fin)\r\nFin.\r\n"},
		{"same week, phase said", fm48 + "Dernier relevé : 2026-S48.\n", fm48 + "Dernier relevé : 2026-S48.\n"},
		{"earlier week", fm + "Dernier relevé : 2026-S49.\n", fm + "Dernier relevé : 2026-S49.\n"},
		{"earlier week in phase", "---\nphase: dernier relevé 2026-S50\n---\nDernier relevé : 2026-S47.\n", "---\nphase: dernier relevé 2026-S50\n---\nDernier relevé : 2026-S47.\n"},
		{"no line", fm + "Serveurs.\n", fm48 + "Serveurs.\n\nDernier relevé : 2026-S48.\n"},
		{"line without a week", fm + "Dernier relevé : jamais.\n", fm48 + "Dernier relevé : 2026-S48.\n"},
	} {
		if got := KitContext(nil, c.text, r); got != c.want {
			t.Errorf("%s: KitContext =\n%s\nwant\n%s", c.name, got, c.want)
		}
	}
}

// TestKitContextAsTheKitWrites: on the context the memory-kit's worklog
// writes (its phase, quoted date-only last-session, "## Dernier relevé"
// heading and the week's lines under it), a later week's persist leaves
// no part of the file naming the old week: phase, last-session, heading
// and lines all say the new one, as the kit's own rewrite does; a heading
// with no lines under it gets them.
func TestKitContextAsTheKitWrites(t *testing.T) {
	r := KitRecord{Week: WeekOf(Date{Year: 2026, Month: 11, Day: 25}), Amplitude: 7.5,
		Hours: map[string]float64{"atelier": 7, "webshop": 21.5}, Now: time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)}
	kit := func(week, lastSession, span, amplitude, hours string) string {
		return "---\ndomain: worklogs\nphase: dernier relevé " + week + "\nlast-session: '" + lastSession + "'\ndisplay: Worklogs — context\n---\n\n" +
			"# Worklogs — Contexte actif\n\n## Dernier relevé : " + week + "\n\n- Semaine : " + span + "\n- Amplitude : " + amplitude +
			"\n- Heures par projet : " + hours + "\n\nChaque archive hebdo contient 3 niveaux.\n"
	}
	old := kit("2026-S47", "2026-11-23", "2026-11-16 → 2026-11-22", "7h/jour", "(non renseignées)")
	want := kit("2026-S48", "2026-11-30", "2026-11-23 → 2026-11-29", "7.5h/jour", "webshop 21.5h, atelier 7h")
	if got := KitContext(nil, old, r); got != want {
		t.Errorf("KitContext =\n%s\nwant\n%s", got, want)
	}
	bare := "---\nphase: x\n---\n## Dernier relevé : 2026-S47\nFin.\n"
	wantBare := "---\nphase: dernier relevé 2026-S48\nlast-session: 2026-11-30\n---\n## Dernier relevé : 2026-S48\n\n" +
		"- Semaine : 2026-11-23 → 2026-11-29\n- Amplitude : 7.5h/jour\n- Heures par projet : webshop 21.5h, atelier 7h\n\nFin.\n"
	if got := KitContext(nil, bare, r); got != wantBare {
		t.Errorf("KitContext on a bare heading =\n%s\nwant\n%s", got, wantBare)
	}
}
