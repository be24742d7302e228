package buildinfo

import (
	"bufio"
	"debug/buildinfo"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

func info(version string, settings ...string) *debug.BuildInfo {
	bi := &debug.BuildInfo{Main: debug.Module{Path: "kessho", Version: version}}
	for i := 0; i+1 < len(settings); i += 2 {
		bi.Settings = append(bi.Settings, debug.BuildSetting{Key: settings[i], Value: settings[i+1]})
	}
	return bi
}

// TestDep reads a dependency's version, a replacement's instead, and
// "unknown" for a module the binary does not hold or no build info.
func TestDep(t *testing.T) {
	bi := &debug.BuildInfo{Deps: []*debug.Module{
		{Path: "github.com/tetratelabs/wazero", Version: "v1.12.0"},
		{Path: "gopkg.in/yaml.v3", Version: "v3.0.1", Replace: &debug.Module{Path: "../yaml", Version: "v3.0.2-local"}},
	}}
	for _, c := range []struct {
		bi         *debug.BuildInfo
		path, want string
	}{
		{bi, "github.com/tetratelabs/wazero", "v1.12.0"},
		{bi, "gopkg.in/yaml.v3", "v3.0.2-local"},
		{bi, "github.com/yuin/goldmark", "unknown"},
		{nil, "github.com/tetratelabs/wazero", "unknown"},
	} {
		if got := dep(c.bi, c.path); got != c.want {
			t.Errorf("dep(%s) = %q, want %q", c.path, got, c.want)
		}
	}
}

// TestFrom covers every kind of build: a tagged module, a pseudo-version
// (which names its revision already), a build from a work tree without a
// module version (go run, go test, -buildvcs=false), with and without the
// VCS revision, and a modified tree; and a release build's stamp (set by
// the linker), which takes the module version's place, the revision still
// appended when recorded, even after a pseudo-version that named it.
func TestFrom(t *testing.T) {
	const rev = "1778a19c0ffee0123456789abcdef0123456789a"
	for _, c := range []struct {
		name, stamp string
		bi          *debug.BuildInfo
		want        string
	}{
		{"tagged", "", info("v1.2.0", "vcs.revision", rev, "vcs.modified", "false"), "v1.2.0 (1778a19c0ffe)"},
		{"tagged without vcs", "", info("v1.2.0"), "v1.2.0"},
		{"pseudo-version", "", info("v0.0.0-20261201033950-1778a19c0ffe", "vcs.revision", rev), "v0.0.0-20261201033950-1778a19c0ffe"},
		{"pseudo-version dirty", "", info("v0.0.0-20261201033950-1778a19c0ffe+dirty", "vcs.revision", rev, "vcs.modified", "true"), "v0.0.0-20261201033950-1778a19c0ffe+dirty"},
		{"devel with revision", "", info("(devel)", "vcs.revision", rev, "vcs.modified", "false"), "dev (1778a19c0ffe)"},
		{"devel modified", "", info("(devel)", "vcs.revision", rev, "vcs.modified", "true"), "dev (1778a19c0ffe, modified)"},
		{"devel", "", info("(devel)"), "dev"},
		{"empty", "", info(""), "dev"},
		{"no build info", "", nil, "dev"},
		{"stamped devel with revision", "0.1.0", info("(devel)", "vcs.revision", rev), "0.1.0 (1778a19c0ffe)"},
		{"stamped pseudo-version dirty", "0.1.0", info("v0.0.0-20261201033950-1778a19c0ffe+dirty", "vcs.revision", rev, "vcs.modified", "true"), "0.1.0 (1778a19c0ffe, modified)"},
		{"stamped tagged", "0.1.0", info("v1.2.0"), "0.1.0"},
		{"stamped, no build info", "0.1.0", nil, "0.1.0"},
	} {
		if got := from(c.bi, c.stamp); got != c.want {
			t.Errorf("%s: from = %q, want %q", c.name, got, c.want)
		}
	}
}

// stampVar is the variable the release build stamps; scripts/dist.sh
// must name the same (the linker ignores an -X of a name that does not
// exist).
const stampVar = "github.com/kessho/kessho/host/buildinfo.stamped"

func TestDistStampsThisVariable(t *testing.T) {
	b, err := os.ReadFile("../../scripts/dist.sh")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "-X "+stampVar+"=") {
		t.Errorf("scripts/dist.sh does not stamp %s (-X %s=VERSION)", stampVar, stampVar)
	}
}

// TestBinaryVersion builds the kessho command twice, and checks that
// `kessho --version`, `kessho version` and the MCP server's
// serverInfo.version (kessho mcp, over stdio) all report what the Go
// toolchain recorded in the binary (debug/buildinfo, as `go version -m`
// reads it), and `kessho --version` the wazero it holds:
//
//   - from this source tree as it is, however the machine builds it (a
//     git worktree, or GOFLAGS=-buildvcs=false, records no revision);
//   - from a clone of its HEAD with VCS stamping on, as a user's go build
//     or go install does: the version must then name HEAD's revision;
//   - from this source tree again with the release's stamp (-ldflags -X,
//     as `make dist` builds): the stamp, then any revision recorded.
func TestBinaryVersion(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	head, err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatalf("git rev-parse HEAD (the test needs the source's revision): %v", err)
	}
	short := strings.TrimSpace(string(head))[:12]
	clone := filepath.Join(t.TempDir(), "kessho")
	if out, err := exec.Command("git", "clone", "-q", "--shared", root, clone).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	for _, b := range []struct {
		dir, buildvcs, stamp string
		wantRev              bool
	}{{root, "", "", false}, {clone, "-buildvcs=true", "", true}, {root, "", "9.8.7", false}} {
		bin := filepath.Join(t.TempDir(), "kessho")
		build := exec.Command("go", "build", "-ldflags=-X "+stampVar+"="+b.stamp, "-o", bin, "./host/cmd/kessho")
		build.Dir = b.dir
		if b.buildvcs != "" {
			build.Env = append(os.Environ(), "GOFLAGS="+b.buildvcs)
		}
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build in %s: %v\n%s", b.dir, err, out)
		}
		recorded, err := buildinfo.ReadFile(bin)
		if err != nil {
			t.Fatal(err)
		}
		want := from(recorded, b.stamp)
		if b.wantRev && !strings.Contains(want, short) {
			t.Fatalf("a build of HEAD records version %q, without HEAD's revision %s", want, short)
		}
		if b.stamp != "" && want != b.stamp && !strings.HasPrefix(want, b.stamp+" (") {
			t.Fatalf("a build stamped %s says %q", b.stamp, want)
		}
		for what, got := range reported(t, bin) {
			if got != want {
				t.Errorf("%s (built in %s): %q, want %q", what, filepath.Base(b.dir), got, want)
			}
		}
		text, err := exec.Command(bin, "--version").Output()
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(text), "\n")
		if wz := "wazero " + dep(recorded, "github.com/tetratelabs/wazero"); len(lines) < 2 || lines[1] != wz || wz == "wazero unknown" {
			t.Errorf("kessho --version printed %q; want its second line %q (the wazero the binary holds)", text, wz)
		}
	}
}

// reported returns the version each way of asking bin gives.
func reported(t *testing.T, bin string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, arg := range []string{"--version", "version"} {
		text, err := exec.Command(bin, arg).Output()
		if err != nil {
			t.Fatalf("kessho %s: %v", arg, err)
		}
		first, _, _ := strings.Cut(string(text), "\n")
		out["kessho "+arg] = strings.TrimPrefix(first, "kessho ")
	}
	mcp := exec.Command(bin, "--vault", t.TempDir(), "--engine", "native", "mcp")
	stdin, err := mcp.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := mcp.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := mcp.Start(); err != nil {
		t.Fatal(err)
	}
	io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`+"\n")
	text, err := bufio.NewReader(stdout).ReadBytes('\n') // the answer, before stdin closes
	stdin.Close()
	if werr := mcp.Wait(); err != nil || werr != nil {
		t.Fatalf("kessho mcp: %v, %v\n%s", err, werr, text)
	}
	var answer struct {
		Result struct {
			ServerInfo struct{ Version string } `json:"serverInfo"`
		} `json:"result"`
	}
	if err := json.Unmarshal(text, &answer); err != nil {
		t.Fatalf("kessho mcp: initialize answered %s: %v", text, err)
	}
	out["serverInfo.version"] = answer.Result.ServerInfo.Version
	return out
}
