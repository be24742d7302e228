package worklog

import (
	"sort"
	"strconv"
)

// weekdays are the days' names in results, Monday first.
var weekdays = [7]string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}

// Day is one day of the week, as mem_worklog returns it.
type Day struct {
	Date    string `json:"date"`
	Weekday string `json:"weekday"`
	// Worked: the day has sessions and is a weekday (or include_weekend).
	Worked         bool               `json:"worked"`
	Hours          float64            `json:"hours"`
	HoursByProject map[string]float64 `json:"hours_by_project"`
	Sessions       []Session          `json:"sessions"`
}

// Totals are the week's sums.
type Totals struct {
	Sessions          int
	TotalHours        float64
	HoursByProject    map[string]float64
	SessionsByProject map[string]int
}

// Prorate splits each worked day's amplitude (quarters, in quarter hours)
// among its projects in proportion to their sessions (split), and sums the
// week. A worked day has at least one session and is a weekday, or any
// day with weekend; a day with sessions that is not worked lists its
// projects with 0 h. found is sorted (Sort).
func Prorate(week Week, found []Found, quarters int, weekend bool) (Totals, []Day) {
	t := Totals{HoursByProject: map[string]float64{}, SessionsByProject: map[string]int{}}
	weekQ := map[string]int{}
	var days []Day
	for i, d := range week.days() {
		day := Day{Date: d.String(), Weekday: weekdays[i], HoursByProject: map[string]float64{}, Sessions: []Session{}}
		shares := dayShares(d, found, &day)
		for _, sh := range shares {
			t.SessionsByProject[sh.Key] += sh.Sessions
			weekQ[sh.Key] += 0
		}
		t.Sessions += len(day.Sessions)
		day.Worked = len(day.Sessions) > 0 && (weekend || !d.weekend())
		if day.Worked {
			for j, q := range split(quarters, shares) {
				day.HoursByProject[shares[j].Key] = hoursOf(q)
				weekQ[shares[j].Key] += q
			}
			day.Hours = hoursOf(quarters)
		} else {
			for _, sh := range shares {
				day.HoursByProject[sh.Key] = 0
			}
		}
		days = append(days, day)
	}
	total := 0
	for slug, q := range weekQ {
		t.HoursByProject[slug] = hoursOf(q)
		total += q
	}
	t.TotalHours = hoursOf(total)
	return t, days
}

// dayShares adds day d's sessions to day and returns its projects' shares,
// sorted by slug.
func dayShares(d Date, found []Found, day *Day) []share {
	count := map[string]int{}
	for _, s := range found {
		if s.Date == d {
			day.Sessions = append(day.Sessions, s.Session)
			count[s.Slug]++
		}
	}
	var shares []share
	for slug, n := range count {
		shares = append(shares, share{Key: slug, Sessions: n})
	}
	sort.Slice(shares, func(a, b int) bool { return shares[a].Key < shares[b].Key })
	return shares
}

// FormatHours writes hours as the shortest decimal: 7, 7.5, 7.25.
func FormatHours(h float64) string { return strconv.FormatFloat(h, 'f', -1, 64) }

// ByHours returns the keys of hours, most hours first, then by key.
func ByHours(hours map[string]float64) []string {
	var out []string
	for k := range hours {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool {
		if hours[out[i]] != hours[out[j]] {
			return hours[out[i]] > hours[out[j]]
		}
		return out[i] < out[j]
	})
	return out
}
