package engine

import (
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"
)

// keepOtherModules is how many compilation caches of other core modules
// (other kessho versions, or other builds while developing) the default
// cache folder keeps besides this one's.
const keepOtherModules = 2

// moduleID names the module's cache folder: its CRC-32C and
// length. It only sorts caches into folders (wazero keys each compiled
// module by its own hash inside), so a CRC, 15 times cheaper than a
// SHA-256 on every start of the CLI, is enough.
var moduleID = sync.OnceValue(func() string {
	mod, _ := module() // NewWasm checked its error
	sum := crc32.Checksum(mod, crc32.MakeTable(crc32.Castagnoli))
	return fmt.Sprintf("core-%08x-%d", sum, len(mod))
})

// moduleCacheDir returns the default compilation cache of this module,
// root/<moduleID>, marked as just used, and prunes the caches of other
// modules under root but the keepOtherModules most recently used. Each
// cache is ~30 MB of machine code, and a module once replaced is rarely
// needed again: without pruning, every upgrade would leave one behind.
func moduleCacheDir(root string) string {
	dir := filepath.Join(root, moduleID())
	if err := os.MkdirAll(dir, 0o700); err == nil {
		now := time.Now()
		_ = os.Chtimes(dir, now, now)
	}
	pruneCaches(root, moduleID(), keepOtherModules)
	return dir
}

// pruneCaches removes the folders under root, except keep, but the n most
// recently modified. Errors are ignored: a cache is never worth failing a
// call for.
func pruneCaches(root, keep string, n int) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return
	}
	type dir struct {
		name string
		mod  time.Time
	}
	var others []dir
	for _, e := range entries {
		if !e.IsDir() || e.Name() == keep {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		others = append(others, dir{e.Name(), info.ModTime()})
	}
	sort.Slice(others, func(i, j int) bool { return others[i].mod.After(others[j].mod) })
	for i := n; i < len(others); i++ {
		_ = os.RemoveAll(filepath.Join(root, others[i].name))
	}
}
