// Package worklog holds the domain of mem_worklog: ISO weeks and
// archive-name timestamps (this file), which archives are candidates for a
// week and how one is read as a session (collect.go), its excerpt and next
// steps (excerpt.go), the proration of a day's hours among projects
// (prorate.go), and the week's note (render.go). It reads nothing itself:
// mem_worklog reads through the View and hands it contents; it says
// nothing in words: outcomes and problems come back as values that the
// tool turns into messages.
//
// Everything works on calendar dates (a Date is a year, month and day, with
// no clock and no zone), never on 24-hour durations, so that a week that
// crosses a daylight-saving change still has seven days from Monday to
// Sunday.
//
//	d, _ := worklog.ParseDate("2027-01-01")
//	w := worklog.WeekOf(d)
//	w.String()              // "2026-W53"
//	w.Start().String()      // "2026-12-28"
//	w.End().String()        // "2027-01-03"
package worklog

import (
	"fmt"
	"sort"
	"strconv"
	"time"
)

// Date is a calendar date.
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// DateOf returns the calendar date of t in t's own location.
func DateOf(t time.Time) Date {
	y, m, d := t.Date()
	return Date{y, m, d}
}

// ParseDate reads "YYYY-MM-DD" (exactly that form, a real day of the
// calendar).
func ParseDate(s string) (Date, error) {
	if d, ok := parseDate(s); ok {
		return d, nil
	}
	if len(s) == 10 && s[4] == '-' && s[7] == '-' && digits(s[:4]) && digits(s[5:7]) && digits(s[8:]) {
		return Date{}, fmt.Errorf("%q is not a day of the calendar", s)
	}
	return Date{}, fmt.Errorf("%q is not YYYY-MM-DD", s)
}

// parseDate is ParseDate without an error to build: it runs on every
// archive name of the vault, so it stays clear of package time.
func parseDate(s string) (Date, bool) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' || !digits(s[:4]) || !digits(s[5:7]) || !digits(s[8:]) {
		return Date{}, false
	}
	y := int(s[0]-'0')*1000 + int(s[1]-'0')*100 + int(s[2]-'0')*10 + int(s[3]-'0')
	m := int(s[5]-'0')*10 + int(s[6]-'0')
	d := int(s[8]-'0')*10 + int(s[9]-'0')
	if m < 1 || m > 12 || d < 1 || d > daysIn(time.Month(m), y) {
		return Date{}, false
	}
	return Date{y, time.Month(m), d}, true
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// daysIn returns the number of days of month m of year y.
func daysIn(m time.Month, y int) int {
	switch m {
	case time.February:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case time.April, time.June, time.September, time.November:
		return 30
	}
	return 31
}

// t is the date at midnight UTC: a zone without daylight saving, so that
// AddDate and Weekday are pure calendar arithmetic.
func (d Date) t() time.Time { return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, time.UTC) }

// String returns "YYYY-MM-DD".
func (d Date) String() string {
	if d.Year < 0 || d.Year > 9999 {
		return d.t().Format("2006-01-02")
	}
	b := []byte("0000-00-00")
	b[0], b[1], b[2], b[3] = byte('0'+d.Year/1000), byte('0'+d.Year/100%10), byte('0'+d.Year/10%10), byte('0'+d.Year%10)
	b[5], b[6] = byte('0'+int(d.Month)/10), byte('0'+int(d.Month)%10)
	b[8], b[9] = byte('0'+d.Day/10), byte('0'+d.Day%10)
	return string(b)
}

// AddDays returns the date n calendar days later (earlier when n < 0).
func (d Date) AddDays(n int) Date { return DateOf(d.t().AddDate(0, 0, n)) }

// weekday returns the day of the week.
func (d Date) weekday() time.Weekday { return d.t().Weekday() }

// weekend reports whether the date is a Saturday or a Sunday.
func (d Date) weekend() bool {
	w := d.weekday()
	return w == time.Saturday || w == time.Sunday
}

// Week is an ISO 8601 week: Monday to Sunday, numbered within the ISO
// year that holds its Thursday (so 2027-01-01 is in 2026-W53, and
// 2025-12-29 in 2026-W01).
type Week struct {
	Year, Num int
	monday    Date
	lo, hi    int // keys of Monday and Sunday
}

// WeekOf returns the ISO week holding d.
func WeekOf(d Date) Week {
	t := d.t()
	y, n := t.ISOWeek()
	back := (int(t.Weekday()) + 6) % 7 // days since Monday
	mon := d.AddDays(-back)
	return Week{Year: y, Num: n, monday: mon, lo: mon.key(), hi: mon.AddDays(6).key()}
}

// String returns "YYYY-Www", e.g. "2026-W48".
func (w Week) String() string { return fmt.Sprintf("%04d-W%02d", w.Year, w.Num) }

// Start returns the week's Monday.
func (w Week) Start() Date { return w.monday }

// End returns the week's Sunday.
func (w Week) End() Date { return w.monday.AddDays(6) }

// days returns the seven dates, Monday first.
func (w Week) days() [7]Date {
	var out [7]Date
	for i := range out {
		out[i] = w.monday.AddDays(i)
	}
	return out
}

// contains reports whether d is one of the week's days.
func (w Week) contains(d Date) bool {
	k := d.key()
	return k >= w.lo && k <= w.hi
}

// key orders dates: yyyymmdd as a number.
func (d Date) key() int { return d.Year*10000 + int(d.Month)*100 + d.Day }

// Stamp is the timestamp an archive's file name starts with.
type Stamp struct {
	Date Date
	// Time is "HH:MM", or "" for a name with a date only.
	Time string
	// Rest is what follows the timestamp, without its leading separator
	// ("alpha-premier-jet.md").
	Rest string
}

// nameDate returns the date an archive's file name starts with (the
// date of ParseName), without allocating: it runs on every archive name.
func nameDate(name string) (Date, bool) {
	if len(name) < 10 || len(name) > 10 && isDigit(name[10]) {
		return Date{}, false
	}
	return parseDate(name[:10])
}

// ParseName reads the timestamp at the start of an archive's file name:
// `YYYY-MM-DD-HHhMM-…` or a date alone `YYYY-MM-DD…`. The date (and the
// time) must be followed by the end of the name or by something other than
// a digit, and must be real (2026-02-30 or 25h00 are not timestamps).
// ok is false when the name holds no timestamp.
func ParseName(name string) (s Stamp, ok bool) {
	d, ok := nameDate(name)
	if !ok {
		return Stamp{}, false
	}
	s = Stamp{Date: d, Rest: name[10:]}
	// "-HHhMM" then the end or a non-digit.
	if r := name[10:]; len(r) >= 6 && r[0] == '-' && isDigit(r[1]) && isDigit(r[2]) && (r[3] == 'h' || r[3] == 'H') &&
		isDigit(r[4]) && isDigit(r[5]) && (len(r) == 6 || !isDigit(r[6])) {
		hh, _ := strconv.Atoi(r[1:3])
		mm, _ := strconv.Atoi(r[4:6])
		if hh < 24 && mm < 60 {
			s.Time = r[1:3] + ":" + r[4:6]
			s.Rest = r[6:]
		}
	}
	if len(s.Rest) > 0 && !isDigit(s.Rest[0]) && s.Rest[0] != '.' {
		s.Rest = s.Rest[1:]
	}
	return s, true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// Quarters returns hours as a whole number of quarter hours; ok is false
// when hours is not a multiple of 0.25.
func Quarters(hours float64) (int, bool) {
	q := hours * 4
	n := int(q)
	return n, float64(n) == q
}

// hoursOf returns quarter hours as hours (exact: 0.25 is a power of two).
func hoursOf(quarters int) float64 { return float64(quarters) / 4 }

// share is one project's part of a day: its number of sessions.
type share struct {
	Key      string
	Sessions int
}

// split divides total quarter hours among shares in proportion to their
// sessions, by largest remainder: each share first gets the whole quarters
// of its exact part, then the quarters left over go one each to the
// shares with the largest remainders. Ties go to the share with more
// sessions, then to the smaller key, so the split never depends on the
// order of shares. The parts always sum to total exactly (when there is at
// least one session). Parts come back in the order of shares.
func split(total int, shares []share) []int {
	parts := make([]int, len(shares))
	sessions := 0
	for _, s := range shares {
		sessions += s.Sessions
	}
	if sessions <= 0 || total <= 0 {
		return parts
	}
	rem := make([]int, len(shares))
	given := 0
	for i, s := range shares {
		parts[i] = total * s.Sessions / sessions
		rem[i] = total * s.Sessions % sessions
		given += parts[i]
	}
	order := make([]int, len(shares))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		x, y := order[a], order[b]
		if rem[x] != rem[y] {
			return rem[x] > rem[y]
		}
		if shares[x].Sessions != shares[y].Sessions {
			return shares[x].Sessions > shares[y].Sessions
		}
		return shares[x].Key < shares[y].Key
	})
	for k := 0; given < total; k++ {
		parts[order[k%len(order)]]++
		given++
	}
	return parts
}
