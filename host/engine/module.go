package engine

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
)

// embedded is the folder module/: the core built as a wasip1 reactor by
// `make wasm` (module/kessho.wasm, see wasm/) beside a README that keeps the
// folder in git, so the package compiles without the module.
//
//go:embed module
var embedded embed.FS

// moduleFile is the module's name in embedded.
const moduleFile = "module/kessho.wasm"

// buildArgs are the `go build` arguments that compile the core to the
// module, run with GOOS=wasip1 GOARCH=wasm from the repository's root. The
// Makefile's kessho.wasm rule uses the same (TestBuildModule checks that
// both give the same bytes).
var buildArgs = []string{"build", "-buildmode=c-shared", "-trimpath", "-buildvcs=false", "-ldflags=-s -w"}

// module returns the core module: the embedded one, or, in a binary built
// without it (`go build` or `go test` on a fresh clone), the one
// cachedModule gives, once per process.
var module = sync.OnceValues(func() ([]byte, error) {
	if b, err := embedded.ReadFile(moduleFile); err == nil {
		return b, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("engine: reading the embedded core: %w", err)
	}
	var b []byte
	var err error
	if root, cerr := moduleCache(); cerr == nil {
		b, err = cachedModule(root)
	} else {
		b, err = buildModule()
	}
	if err != nil {
		return nil, fmt.Errorf("%w, and could not build one (%w)", ErrNoSandbox, err)
	}
	return b, nil
})

// moduleCache is the folder of the modules binaries without one built
// (cachedModule): kessho/module in the user's cache.
func moduleCache() (string, error) {
	cache, err := os.UserCacheDir()
	return filepath.Join(cache, "kessho", "module"), err
}

// ErrNoSandbox is why [NewWasm] fails in a binary that holds no core
// module and cannot build one (no source tree, or no go command): a
// `go install`ed binary, or one built with -trimpath, on a machine
// without Go. Such a binary still runs every tool on the native engine;
// the error says so, and how to get the sandbox.
var ErrNoSandbox = errors.New("engine: this kessho holds no sandbox (the core compiled to WebAssembly: `go install` and `go build` leave it out); " +
	"the native engine runs every tool (--engine native). For the sandbox, install a release archive or `npx -y kessho`, or run `make install` in a clone of the repository")

// Sandbox returns nil when [NewWasm] has a core module to run: the
// embedded one, or one built from the source tree (which it builds now,
// once a process); else an error wrapping [ErrNoSandbox].
func Sandbox() error {
	_, err := module()
	return err
}

// Embedded reports whether this binary holds the core module (`make
// cli`, a release archive, the npm package), rather than building it
// from its source tree on first use.
func Embedded() bool {
	_, err := fs.Stat(embedded, moduleFile)
	return err == nil
}

// cachedModule returns the module built for this executable from root
// (kessho/module in the user's cache), in a folder named by the
// executable's CRC-32C and length, where the first process of a binary
// puts the one buildModule makes: a binary started many times (the CLI's
// test scripts) builds it once. The folders of the two most recently used
// other binaries are kept, the rest pruned, as for the compilation caches.
// Without a usable cache, it builds.
//
// The build runs in this process's environment: a test that starts the
// binary with another HOME or XDG_CACHE_HOME passes GOCACHE, GOMODCACHE
// and GOPATH on (as host/cli's scripts do), or the first build starts Go's
// caches afresh.
func cachedModule(root string) ([]byte, error) {
	key, err := executableKey()
	if err != nil {
		return buildModule()
	}
	path := filepath.Join(root, key, "kessho.wasm")
	if b, err := os.ReadFile(path); err == nil && bytes.HasPrefix(b, []byte("\x00asm")) {
		return b, nil
	}
	b, err := buildModule()
	if err != nil {
		return nil, err
	}
	// Written whole under a temporary name, then renamed: processes that
	// start together each build, and the last rename wins.
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err == nil {
		if f, err := os.CreateTemp(filepath.Dir(path), "kessho-*.wasm"); err == nil {
			_, werr := f.Write(b)
			if cerr := f.Close(); werr == nil && cerr == nil {
				_ = os.Rename(f.Name(), path)
			}
			_ = os.Remove(f.Name()) // when the rename did not happen
		}
	}
	pruneCaches(root, key, keepOtherModules)
	return b, nil
}

// executableKey names this executable's folder in the module cache: its
// CRC-32C and length.
func executableKey() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	self, err := os.ReadFile(exe)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("exe-%08x-%d", crc32.Checksum(self, crc32.MakeTable(crc32.Castagnoli)), len(self)), nil
}

// Missing reports, without building anything, why this binary can have
// no sandbox: nil when it holds the core module, has built one before
// (in the user's cache, see cachedModule), or can build one (its source
// tree and the go command are there); else an error wrapping
// [ErrNoSandbox]. `kessho mcp` asks it to serve natively from the start.
func Missing() error {
	if Embedded() {
		return nil
	}
	if root, err := moduleCache(); err == nil {
		if key, err := executableKey(); err == nil {
			if st, err := os.Stat(filepath.Join(root, key, "kessho.wasm")); err == nil && st.Mode().IsRegular() {
				return nil
			}
		}
	}
	if _, _, err := toolchain(); err != nil {
		return fmt.Errorf("%w (%w)", ErrNoSandbox, err)
	}
	return nil
}

// toolchain returns what buildModule builds with: the source tree and
// the go command.
func toolchain() (root, goCmd string, err error) {
	if root, err = sourceRoot(); err != nil {
		return "", "", err
	}
	if goCmd, err = exec.LookPath("go"); err != nil {
		return "", "", fmt.Errorf("finding the go command: %w", err)
	}
	return root, goCmd, nil
}

// buildModule compiles the core to WebAssembly with the Go toolchain (the
// `go` command on PATH) from the source tree this package was compiled
// from, into a temporary file it reads and removes. Go's build cache makes
// it cost one link, about half a second. A binary built with -trimpath
// does not know its source tree and fails.
func buildModule() ([]byte, error) {
	root, goCmd, err := toolchain()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "kessho-module-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "kessho.wasm")
	cmd := exec.Command(goCmd, append(buildArgs, "-o", out, "./wasm")...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build ./wasm in %s: %v\n%s", root, err, msg)
	}
	return os.ReadFile(out)
}

// sourceRoot returns the repository's root: two folders above this file
// when it was compiled, if it still holds the wasm command.
func sourceRoot() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) {
		return "", errors.New("the source tree is unknown (built with -trimpath)")
	}
	root := filepath.Dir(filepath.Dir(filepath.Dir(file)))
	if _, err := os.Stat(filepath.Join(root, "wasm", "main.go")); err != nil {
		return "", fmt.Errorf("the source tree is gone: %w", err)
	}
	return root, nil
}
