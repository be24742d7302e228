package main

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRootManifestsArePlugins checks that the repository root's
// manifest.json and versions.json (what Obsidian's community list and
// BRAT read) are the plugin's, and that the manifest's version is packable.
func TestRootManifestsArePlugins(t *testing.T) {
	if _, _, err := checkManifests("../../../plugin-shim", "../../.."); err != nil {
		t.Fatal(err)
	}
}

// plugin writes a plugin folder and a root with copies of its manifests.
func plugin(t *testing.T, manifest, versions string) (dir, root string) {
	t.Helper()
	dir, root = t.TempDir(), t.TempDir()
	for name, text := range map[string]string{"main.js": "js", "styles.css": "css", "manifest.json": manifest, "versions.json": versions} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"manifest.json", "versions.json"} {
		b, _ := os.ReadFile(filepath.Join(dir, name))
		if err := os.WriteFile(filepath.Join(root, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, root
}

const manifest = `{"id":"kessho","version":"1.2.3","minAppVersion":"1.6.6"}`

func TestPack(t *testing.T) {
	dir, root := plugin(t, manifest, `{"1.2.3":"1.6.6"}`)
	out := t.TempDir()
	zipPath, err := pack(dir, root, out)
	if err != nil {
		t.Fatal(err)
	}
	if zipPath != filepath.Join(out, "kessho-1.2.3.zip") {
		t.Errorf("zip at %s", zipPath)
	}
	for _, f := range files {
		want, _ := os.ReadFile(filepath.Join(dir, f))
		got, err := os.ReadFile(filepath.Join(out, "kessho-1.2.3", "kessho", f))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("dist/kessho-1.2.3/kessho/%s = %q, %v; want %q", f, got, err, want)
		}
	}
	zr, err := zip.OpenReader(zipPath)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
		r, _ := f.Open()
		got, _ := io.ReadAll(r)
		r.Close()
		want, _ := os.ReadFile(filepath.Join(dir, filepath.Base(f.Name)))
		if !bytes.Equal(got, want) {
			t.Errorf("zip's %s = %q, want %q", f.Name, got, want)
		}
	}
	if strings.Join(names, " ") != "kessho/main.js kessho/manifest.json kessho/styles.css" {
		t.Errorf("zip holds %q", names)
	}
}

func TestPackRefuses(t *testing.T) {
	for _, c := range []struct {
		name, manifest, versions, want string
		drift                          bool
	}{
		{"drift", manifest, `{"1.2.3":"1.6.6"}`, "differs from", true},
		{"no versions entry", manifest, `{"1.2.2":"1.6.6"}`, `"1.2.3" maps to ""`, false},
		{"other minAppVersion", manifest, `{"1.2.3":"1.5.0"}`, `want the manifest's minAppVersion "1.6.6"`, false},
		{"bad version", `{"id":"kessho","version":"v1.2","minAppVersion":"1.6.6"}`, `{}`, `version "v1.2" is not x.y.z`, false},
		{"no id", `{"version":"1.2.3","minAppVersion":"1.6.6"}`, `{"1.2.3":"1.6.6"}`, `id "" is not a plugin folder's name`, false},
		{"id with a slash", `{"id":"../kessho","version":"1.2.3","minAppVersion":"1.6.6"}`, `{"1.2.3":"1.6.6"}`, `id "../kessho" is not`, false},
	} {
		dir, root := plugin(t, c.manifest, c.versions)
		if c.drift {
			os.WriteFile(filepath.Join(root, "manifest.json"), []byte(`{"version":"1.2.2"}`), 0o644)
		}
		out := t.TempDir()
		if _, err := pack(dir, root, out); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
		if entries, _ := os.ReadDir(out); len(entries) != 0 {
			t.Errorf("%s: wrote %d entries though refused", c.name, len(entries))
		}
	}
}
