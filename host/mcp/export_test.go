package mcp

import "time"

// ProgressEvery is progressEvery, for the tests of package mcp_test.
const ProgressEvery = progressEvery

// SetTicker makes the progress of calls tick with f instead of a
// time.Ticker until restore is called.
func SetTicker(f func(time.Duration) (<-chan time.Time, func())) (restore func()) {
	old := newTicker
	newTicker = f
	return func() { newTicker = old }
}

// ServerText is serverText, for the check of its text file.
var ServerText = serverText
