package main

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// modulePath is go.mod's module line: what `go install` names.
const modulePath = "github.com/kessho/kessho"

// TestGoInstall installs the command as a Go user does, `go install
// github.com/kessho/kessho/host/cmd/kessho@VERSION`, from a module proxy
// that serves this source tree's git files as that version (a file://
// proxy in a temporary folder, the module cache's own downloads serving
// the dependencies, nothing from the network), into a fresh module
// cache. The binary holds no sandbox, as a published module's would (the
// compiled core is not in git). It must still be whole:
//
//   - `kessho --version` says the sandbox is not embedded;
//   - with the go command on PATH, `--engine wasm` builds the sandbox
//     from the module's source in the module cache, and answers;
//   - without go on PATH, one-shot commands answer natively, `kessho mcp`
//     serves its first tool call natively and logs how to get the
//     sandbox, and `--engine wasm` refuses, saying the same.
func TestGoInstall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command from a module proxy")
	}
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	downloads, err := exec.Command(goCmd, "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	proxy := filepath.Join(tmp, "proxy")
	const version = "v0.1.0"
	writeModule(t, root, proxy, version)

	modcache := filepath.Join(tmp, "modcache")
	bin := filepath.Join(tmp, "bin")
	env := append(os.Environ(),
		"GOMODCACHE="+modcache,
		"GOFLAGS=-modcacherw", // so that t.TempDir can remove it
		"GOPROXY=file://"+filepath.ToSlash(proxy)+",file://"+filepath.ToSlash(filepath.Join(strings.TrimSpace(string(downloads)), "cache", "download")),
		"GONOSUMDB="+modulePath, "GOSUMDB=off",
		"GOBIN="+bin, "GOWORK=off",
	)
	install := exec.Command(goCmd, "install", modulePath+"/host/cmd/kessho@"+version)
	install.Dir = tmp
	install.Env = env
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("go install: %v\n%s", err, out)
	}
	kessho := filepath.Join(bin, "kessho")
	if _, err := os.Stat(kessho + ".exe"); err == nil {
		kessho += ".exe"
	}

	// run runs kessho with the go command on PATH or not, and a user
	// cache of its own without: a binary that has once built its sandbox
	// keeps it in the user's cache.
	run := func(t *testing.T, withGo bool, args ...string) (string, string, int) {
		t.Helper()
		cmd := exec.Command(kessho, args...)
		cmd.Env = userEnv(env, tmp, withGo)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return stdout.String(), stderr.String(), code
	}
	vault := filepath.Join(tmp, "vault")
	if out, errs, code := run(t, true, "--vault", vault, "init"); code != 0 {
		t.Fatalf("kessho init: exit %d\n%s%s", code, out, errs)
	}
	if out, errs, code := run(t, true, "--vault", vault, "init", "alpha", "--summary", "A first project."); code != 0 {
		t.Fatalf("kessho init alpha: exit %d\n%s%s", code, out, errs)
	}

	t.Run("version", func(t *testing.T) {
		out, errs, code := run(t, true, "--version")
		if code != 0 || !strings.Contains(out, "\nsandbox: not embedded") {
			t.Errorf("kessho --version: exit %d, printed\n%s%s\nwant a line saying the sandbox is not embedded", code, out, errs)
		}
	})
	t.Run("with go", func(t *testing.T) {
		out, errs, code := run(t, true, "--vault", vault, "--engine", "wasm", "list")
		if code != 0 || !strings.Contains(out, "**alpha**") {
			t.Errorf("kessho --engine wasm list, go on PATH: exit %d, printed\n%s%s\nwant the sandbox built from the module cache's source, listing alpha", code, out, errs)
		}
	})
	t.Run("without go", func(t *testing.T) {
		out, errs, code := run(t, false, "--vault", vault, "list")
		if code != 0 || !strings.Contains(out, "**alpha**") {
			t.Errorf("kessho list: exit %d, printed\n%s%s\nwant alpha, listed natively", code, out, errs)
		}
		out, errs, code = run(t, false, "--vault", vault, "--engine", "wasm", "mcp")
		if code != 2 || !strings.Contains(errs, "holds no sandbox") || !strings.Contains(errs, "make install") {
			t.Errorf("kessho --engine wasm mcp: exit %d, printed\n%s%s\nwant exit 2 and why there is no sandbox, and how to get one", code, out, errs)
		}
		answer, log := firstCall(t, kessho, userEnv(env, tmp, false), vault)
		if !strings.Contains(answer, `"structuredContent"`) || strings.Contains(answer, `"isError":true`) || !strings.Contains(answer, "alpha") {
			t.Errorf("kessho mcp: mem_list answered %s\nwant alpha, served natively", answer)
		}
		if !strings.Contains(log, "holds no sandbox") || !strings.Contains(log, "make install") {
			t.Errorf("kessho mcp logged %q\nwant that every call runs natively, and how to get the sandbox", log)
		}
	})
}

// userEnv is env for a user whose home is under tmp: with the go
// command on PATH, or none on it and another cache.
func userEnv(env []string, tmp string, withGo bool) []string {
	path, cache := os.Getenv("PATH"), filepath.Join(tmp, "cache")
	if !withGo {
		path, cache = filepath.Join(tmp, "nogo"), filepath.Join(tmp, "cache-nogo")
	}
	return append(env, "PATH="+path, "XDG_CACHE_HOME="+cache, "HOME="+tmp)
}

// firstCall starts `kessho mcp` on vault, and returns its answer to a
// first mem_list and what it wrote on standard error.
func firstCall(t *testing.T, kessho string, env []string, vault string) (answer, log string) {
	t.Helper()
	cmd := exec.Command(kessho, "--vault", vault, "mcp")
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"mem_list","arguments":{}}}`,
	} {
		io.WriteString(stdin, m+"\n")
	}
	lines := bufio.NewReader(stdout)
	for {
		line, err := lines.ReadString('\n')
		if err != nil {
			t.Fatalf("kessho mcp: %v before answering mem_list\n%s", err, stderr.String())
		}
		var msg struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal([]byte(line), &msg) == nil && string(msg.ID) == "2" {
			answer = line
			break
		}
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("kessho mcp: %v\n%s", err, stderr.String())
	}
	return answer, stderr.String()
}

// nested reports whether the file name (slash-separated, under root)
// belongs to a module nested in root's: a folder above it, below root,
// holds a go.mod. A module zip leaves such files out.
func nested(root, name string) bool {
	for dir := path.Dir(name); dir != "."; dir = path.Dir(dir) {
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(dir), "go.mod")); err == nil {
			return true
		}
	}
	return false
}

// writeModule writes, under proxy, a GOPROXY's files for modulePath at
// version: the git files of the source tree at root (as they are in the
// work tree) but those of nested modules, as the module proxy zips a
// tagged commit (golang.org/x/mod/zip's rules; the Go command checks
// every file name when it extracts the zip).
func writeModule(t *testing.T, root, proxy, version string) {
	t.Helper()
	files, err := exec.Command("git", "-C", root, "ls-files", "-z").Output()
	if err != nil {
		t.Fatalf("git ls-files (the test serves the source's git files): %v", err)
	}
	dir := filepath.Join(proxy, filepath.FromSlash(modulePath), "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range strings.Split(strings.TrimSuffix(string(files), "\x00"), "\x00") {
		if nested(root, name) {
			continue // another module's, left out as a module zip leaves it
		}
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if os.IsNotExist(err) {
			continue // deleted in the work tree
		} else if err != nil {
			t.Fatal(err)
		}
		w, err := zw.Create(modulePath + "@" + version + "/" + name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(b)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{
		"list":            []byte(version + "\n"),
		version + ".info": []byte(`{"Version":"` + version + `","Time":"2026-12-01T00:00:00Z"}`),
		version + ".mod":  mod,
		version + ".zip":  buf.Bytes(),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
