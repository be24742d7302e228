// Package buildinfo says which Kessho is running: the version `kessho
// --version` prints and the MCP server reports as serverInfo.version.
//
// It reads the build information the Go toolchain records in the binary
// (runtime/debug.ReadBuildInfo): the main module's version and the
// version control revision it was built from. A build of a tagged module
// (`go install github.com/kessho/kessho/host/cmd/kessho@v1.2.0`) reports its tag and, when
// recorded, its revision: "v1.2.0 (1778a19c0ffe)". A build inside a git
// work tree (go build, since Go 1.24) gets a pseudo-version that already
// names the revision and marks a modified tree:
// "v0.0.0-20261201033950-1778a19c0ffe+dirty". Only a build with no module
// version (go run, go test, -buildvcs=false) reports "dev", followed by
// the revision when the toolchain recorded it: "dev (1778a19c0ffe,
// modified)".
//
// The release archives `make dist` builds are stamped with the release's
// version (the plugin manifest's) by the linker, -ldflags "-X
// github.com/kessho/kessho/host/buildinfo.stamped=0.1.0": it takes the module version's
// place, and the revision is still appended when recorded: "0.1.0
// (1778a19c0ffe)".
package buildinfo

import (
	"runtime/debug"
	"strings"
	"sync"
)

// Wazero returns the version of wazero, the WebAssembly runtime, the
// running binary was built with ("unknown" when the toolchain recorded
// none): `kessho --version` prints it, for a bug report says which
// runtime compiled the sandbox.
var Wazero = sync.OnceValue(func() string {
	info, _ := debug.ReadBuildInfo()
	return dep(info, "github.com/tetratelabs/wazero")
})

// dep returns the version of module path among info's dependencies (its
// replacement's, when replaced), or "unknown".
func dep(info *debug.BuildInfo, path string) string {
	if info != nil {
		for _, d := range info.Deps {
			if d.Path != path {
				continue
			}
			if d.Replace != nil {
				d = d.Replace
			}
			if d.Version != "" {
				return d.Version
			}
		}
	}
	return "unknown"
}

// stamped is the release version the linker sets (-X, see the package
// documentation); empty in every other build.
var stamped string

// Version returns the running binary's version (see the package
// documentation).
var Version = sync.OnceValue(func() string {
	info, _ := debug.ReadBuildInfo()
	return from(info, stamped)
})

// from returns the version that info describes, with stamp in place of the
// module version when stamp is not empty; nil describes an unversioned
// build.
func from(info *debug.BuildInfo, stamp string) string {
	if info == nil {
		info = &debug.BuildInfo{}
	}
	version := info.Main.Version
	if stamp != "" {
		version = stamp
	} else if version == "" || version == "(devel)" {
		version = "dev"
	}
	var rev string
	modified := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev == "" || strings.Contains(version, rev) {
		return version // a pseudo-version names its revision (and +dirty)
	}
	if modified {
		rev += ", modified"
	}
	return version + " (" + rev + ")"
}
