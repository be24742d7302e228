package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
)

// files are what Obsidian installs from a release, in this order.
var files = []string{"main.js", "manifest.json", "styles.css"}

// version is what Obsidian accepts as a plugin version: x.y.z.
var version = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+$`)

// pack checks the plugin's manifest against root's copies and writes
// out/kessho-<version>/ and out/kessho-<version>.zip; it returns the
// zip's path.
func pack(plugin, root, out string) (string, error) {
	v, err := checkManifests(plugin, root)
	if err != nil {
		return "", err
	}
	name := "kessho-" + v
	dir := filepath.Join(out, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(plugin, f))
		if err != nil {
			return "", fmt.Errorf("%w (run `make plugin` first)", err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			return "", err
		}
		w, err := zw.Create(name + "/" + f)
		if err != nil {
			return "", err
		}
		if _, err := w.Write(b); err != nil {
			return "", err
		}
	}
	if err := zw.Close(); err != nil {
		return "", err
	}
	zipPath := filepath.Join(out, name+".zip")
	return zipPath, os.WriteFile(zipPath, buf.Bytes(), 0o644)
}

// checkManifests returns the plugin's version once root's manifest.json
// and versions.json are byte for byte the plugin's, the version is x.y.z
// and versions.json maps it to the manifest's minAppVersion.
func checkManifests(plugin, root string) (string, error) {
	read := map[string][]byte{} // the plugin's, by name
	for _, f := range []string{"manifest.json", "versions.json"} {
		a, err := os.ReadFile(filepath.Join(plugin, f))
		if err != nil {
			return "", err
		}
		read[f] = a
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			return "", err
		}
		if !bytes.Equal(a, b) {
			return "", fmt.Errorf("%s differs from %s: run `make plugin` (it copies the plugin's to the root)",
				filepath.Join(root, f), filepath.Join(plugin, f))
		}
	}
	var m struct {
		Version       string `json:"version"`
		MinAppVersion string `json:"minAppVersion"`
	}
	if err := json.Unmarshal(read["manifest.json"], &m); err != nil {
		return "", fmt.Errorf("%s: %w", filepath.Join(plugin, "manifest.json"), err)
	}
	if !version.MatchString(m.Version) {
		return "", fmt.Errorf("manifest.json: version %q is not x.y.z", m.Version)
	}
	var vs map[string]string
	if err := json.Unmarshal(read["versions.json"], &vs); err != nil {
		return "", fmt.Errorf("%s: %w", filepath.Join(plugin, "versions.json"), err)
	}
	if vs[m.Version] != m.MinAppVersion {
		return "", fmt.Errorf("versions.json: %q maps to %q, want the manifest's minAppVersion %q", m.Version, vs[m.Version], m.MinAppVersion)
	}
	return m.Version, nil
}
