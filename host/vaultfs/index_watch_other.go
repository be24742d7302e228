//go:build !linux

package vaultfs

// watcher is no watcher: elsewhere than on Linux every search walks the
// vault.
type watcher struct{}

func (w *watcher) watch(string, []string) {}
func (w *watcher) covers([]string) bool   { return false }
func (w *watcher) changed() bool          { return true }
func (w *watcher) reset()                 {}

func (w *watcher) only(func(dir, name string) bool) bool { return false }
