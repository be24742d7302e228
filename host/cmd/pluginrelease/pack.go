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

// pluginID is what Obsidian accepts as a plugin's id, the name of its
// folder under .obsidian/plugins/.
var pluginID = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// pack checks the plugin's manifest against root's copies and writes
// out/<id>-<version>/<id>/ (the three files) and out/<id>-<version>.zip
// holding the folder <id>/; it returns the zip's path. The folder in the
// zip is named by the plugin's id, so that unzipping it into
// .obsidian/plugins/ installs the plugin as it is (Obsidian finds a
// plugin by its folder's name; a versioned folder had to be renamed).
func pack(plugin, root, out string) (string, error) {
	id, v, err := checkManifests(plugin, root)
	if err != nil {
		return "", err
	}
	name := id + "-" + v
	dir := filepath.Join(out, name, id)
	if err := os.RemoveAll(filepath.Join(out, name)); err != nil {
		return "", err
	}
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
		w, err := zw.Create(id + "/" + f)
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

// checkManifests returns the plugin's id and version once root's
// manifest.json and versions.json are byte for byte the plugin's, the id
// is a folder name Obsidian accepts, the version is x.y.z and
// versions.json maps it to the manifest's minAppVersion.
func checkManifests(plugin, root string) (id, ver string, err error) {
	read := map[string][]byte{} // the plugin's, by name
	for _, f := range []string{"manifest.json", "versions.json"} {
		a, err := os.ReadFile(filepath.Join(plugin, f))
		if err != nil {
			return "", "", err
		}
		read[f] = a
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			return "", "", err
		}
		if !bytes.Equal(a, b) {
			return "", "", fmt.Errorf("%s differs from %s: run `make plugin` (it copies the plugin's to the root)",
				filepath.Join(root, f), filepath.Join(plugin, f))
		}
	}
	var m struct {
		ID            string `json:"id"`
		Version       string `json:"version"`
		MinAppVersion string `json:"minAppVersion"`
	}
	if err := json.Unmarshal(read["manifest.json"], &m); err != nil {
		return "", "", fmt.Errorf("%s: %w", filepath.Join(plugin, "manifest.json"), err)
	}
	if !pluginID.MatchString(m.ID) {
		return "", "", fmt.Errorf("manifest.json: id %q is not a plugin folder's name (lower-case letters, digits, dashes)", m.ID)
	}
	if !version.MatchString(m.Version) {
		return "", "", fmt.Errorf("manifest.json: version %q is not x.y.z", m.Version)
	}
	var vs map[string]string
	if err := json.Unmarshal(read["versions.json"], &vs); err != nil {
		return "", "", fmt.Errorf("%s: %w", filepath.Join(plugin, "versions.json"), err)
	}
	if vs[m.Version] != m.MinAppVersion {
		return "", "", fmt.Errorf("versions.json: %q maps to %q, want the manifest's minAppVersion %q", m.Version, vs[m.Version], m.MinAppVersion)
	}
	return m.ID, m.Version, nil
}
