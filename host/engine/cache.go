package engine

import (
	"bufio"
	"crypto/sha256"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/tetratelabs/wazero"
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

// cacheBuffer is the buffer of a compiled module's read from the disk
// cache (see bufferCacheReads).
const cacheBuffer = 256 << 10

// cacheReads counts the reads of compiled modules that reach their files,
// each one system call, for tests.
var cacheReads atomic.Int64

// fileCache is the method set of wazero's internal filecache.Cache, the
// disk half of a CompilationCache made by NewCompilationCacheWithDir.
// Its key type is an alias of [32]byte, so a type of this package can
// implement the internal interface.
type fileCache interface {
	Get(key [sha256.Size]byte) (content io.ReadCloser, ok bool, err error)
	Add(key [sha256.Size]byte, content io.Reader) error
	Delete(key [sha256.Size]byte) error
}

// bufferedCache is wazero's own file cache whose Get hands out a
// buffered reader: wazero v1.12 decodes a compiled module by reading 8
// bytes at a time from the *os.File its cache opened (one offset per
// function: some 4,900 read system calls for the core, as many as its
// functions). Through the buffer they are a handful.
type bufferedCache struct{ fileCache }

func (c bufferedCache) Get(key [sha256.Size]byte) (io.ReadCloser, bool, error) {
	rc, ok, err := c.fileCache.Get(key)
	if !ok || err != nil {
		return rc, ok, err
	}
	return &bufferedReader{Reader: bufio.NewReaderSize(countingReader{rc}, cacheBuffer), file: rc}, true, nil
}

type bufferedReader struct {
	*bufio.Reader
	file io.Closer
}

func (r *bufferedReader) Close() error { return r.file.Close() }

type countingReader struct{ r io.Reader }

func (c countingReader) Read(p []byte) (int, error) {
	cacheReads.Add(1)
	return c.r.Read(p)
}

// bufferCacheReads makes a cache that NewCompilationCacheWithDir returned
// read its files through a buffer (see bufferedCache), and reports
// whether it could. wazero offers no way to give a CompilationCache a
// disk cache of one's own (the interface is internal), so this swaps the
// unexported field that holds it, by reflection, before any runtime uses
// the cache. A wazero whose cache has no such field is left as it is:
// its starts read unbuffered, and TestCacheReadsBuffered fails.
func bufferCacheReads(c wazero.CompilationCache) bool {
	v := reflect.ValueOf(c)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return false
	}
	f := v.Elem().FieldByName("fileCache")
	if !f.IsValid() || f.Kind() != reflect.Interface || f.IsNil() {
		return false
	}
	f = reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
	inner, ok := f.Interface().(fileCache)
	if !ok {
		return false
	}
	if _, done := inner.(bufferedCache); done {
		return true
	}
	wrapped := reflect.ValueOf(bufferedCache{inner})
	if !wrapped.Type().AssignableTo(f.Type()) {
		return false
	}
	f.Set(wrapped)
	return true
}
