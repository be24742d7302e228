package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeBuilds makes a -bin folder with a linux and a windows build and
// two docs, and returns the folder and the docs' paths.
func fakeBuilds(t *testing.T) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	for path, text := range map[string]string{
		"bin/linux_amd64/kessho":       "ELF",
		"bin/windows_arm64/kessho.exe": "MZ",
		"bin/stray-file":               "not a build",
		"README.md":                    "# Kessho\n",
		"LICENSE":                      "MIT License\n",
	} {
		p := filepath.Join(dir, path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return bin, []string{filepath.Join(dir, "README.md"), filepath.Join(dir, "LICENSE")}
}

// listing is "name mode content" per file of an archive.
func listing(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	if strings.HasSuffix(path, ".zip") {
		zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range zr.File {
			r, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			data, _ := io.ReadAll(r)
			out = append(out, fmt.Sprintf("%s %o %s", f.Name, f.Mode().Perm(), data))
		}
		return out
	}
	gz, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(tr)
		out = append(out, fmt.Sprintf("%s %o %s", h.Name, h.Mode, data))
	}
}

// TestPackAll: one archive per build, named by version, os and arch (a
// zip for windows), the binary executable and the docs beside it at the
// top; SHA256SUMS in sha256sum's format; the same bytes when packed again.
func TestPackAll(t *testing.T) {
	bin, docs := fakeBuilds(t)
	out := filepath.Join(t.TempDir(), "dist")
	paths, err := packAll("0.1.0", bin, out, docs)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"kessho_0.1.0_linux_amd64.tar.gz": {"kessho 755 ELF", "README.md 644 # Kessho\n", "LICENSE 644 MIT License\n"},
		"kessho_0.1.0_windows_arm64.zip":  {"kessho.exe 755 MZ", "README.md 644 # Kessho\n", "LICENSE 644 MIT License\n"},
	}
	if len(paths) != len(want) {
		t.Fatalf("packed %v, want %d archives", paths, len(want))
	}
	var sums strings.Builder
	for _, p := range paths {
		files, ok := want[filepath.Base(p)]
		if !ok {
			t.Fatalf("unexpected archive %s", p)
		}
		if got := listing(t, p); fmt.Sprint(got) != fmt.Sprint(files) {
			t.Errorf("%s holds %q, want %q", filepath.Base(p), got, files)
		}
		b, _ := os.ReadFile(p)
		fmt.Fprintf(&sums, "%x  %s\n", sha256.Sum256(b), filepath.Base(p))
	}
	got, err := os.ReadFile(filepath.Join(out, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != sums.String() {
		t.Errorf("SHA256SUMS:\n%s\nwant:\n%s", got, sums.String())
	}
	again := filepath.Join(t.TempDir(), "dist")
	if _, err := packAll("0.1.0", bin, again, docs); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(again, "SHA256SUMS")); !bytes.Equal(b, got) {
		t.Errorf("packed again, the archives differ:\n%s\n%s", got, b)
	}
}

// TestPackAllRefuses a version npm would not take, and a folder with no
// build.
func TestPackAllRefuses(t *testing.T) {
	bin, docs := fakeBuilds(t)
	for _, v := range []string{"", "v0.1.0", "c312812-dirty", "0.1"} {
		if _, err := packAll(v, bin, t.TempDir(), docs); err == nil {
			t.Errorf("version %q packed", v)
		}
	}
	if _, err := packAll("0.1.0", t.TempDir(), t.TempDir(), docs); err == nil {
		t.Error("a folder with no build packed")
	}
}

// TestNpmPackages: the npm packages of npm/ share the plugin manifest's
// version (the one `make dist` stamps, so `make npm` packs them at the
// binaries' version), kessho depends on exactly the platform packages at
// that version, and each platform package's "os" and "cpu" are the ones
// its name says, its files its binary.
func TestNpmPackages(t *testing.T) {
	type pkg struct {
		Name, Version        string
		OS                   []string `json:"os"`
		CPU                  []string `json:"cpu"`
		Files                []string `json:"files"`
		Bin                  map[string]string
		Dependencies         map[string]string `json:"dependencies"`
		OptionalDependencies map[string]string `json:"optionalDependencies"`
	}
	read := func(path string, v any) {
		t.Helper()
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	var manifest struct{ Version string }
	read("../../../manifest.json", &manifest)
	var main pkg
	read("../../../npm/kessho/package.json", &main)
	if main.Name != "kessho" || main.Version != manifest.Version || main.Bin["kessho"] != "bin/kessho.js" || len(main.Dependencies) != 0 {
		t.Errorf("npm/kessho/package.json: %+v; want kessho at %s, bin/kessho.js, no dependencies", main, manifest.Version)
	}
	paths, _ := filepath.Glob("../../../npm/@kessho/*/package.json")
	var names []string
	for _, path := range paths {
		var p pkg
		read(path, &p)
		dir := filepath.Base(filepath.Dir(path))
		goos, cpu, _ := strings.Cut(dir, "-")
		exe := "bin/kessho"
		if goos == "win32" {
			exe = "bin/kessho.exe"
		}
		if p.Name != "@kessho/"+dir || p.Version != manifest.Version || fmt.Sprint(p.OS) != "["+goos+"]" ||
			fmt.Sprint(p.CPU) != "["+cpu+"]" || fmt.Sprint(p.Files) != "["+exe+"]" || len(p.Dependencies)+len(p.OptionalDependencies) != 0 {
			t.Errorf("%s: %+v; want @kessho/%s at %s, os %s, cpu %s, files %s, no dependencies", path, p, dir, manifest.Version, goos, cpu, exe)
		}
		if v := main.OptionalDependencies[p.Name]; v != manifest.Version {
			t.Errorf("kessho's optionalDependencies give %s %q, want %s", p.Name, v, manifest.Version)
		}
		names = append(names, p.Name)
	}
	if len(names) != 6 || len(main.OptionalDependencies) != len(names) {
		t.Errorf("npm/@kessho holds %v, kessho depends on %v: want the same six platforms", names, main.OptionalDependencies)
	}
}
