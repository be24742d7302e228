package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// semver is the version npm accepts, which the archives share with the
// npm packages: x.y.z, optionally -prerelease.
var semver = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$`)

// epoch is every archived file's time: the archives depend on their
// contents only.
var epoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// entry is one file of an archive.
type entry struct {
	name string
	mode int64
	data []byte
}

// packAll writes one archive per <os>_<arch> folder of bin, each holding
// its binary and docs, and out/SHA256SUMS; it returns the archives'
// paths.
func packAll(version, bin, out string, docs []string) ([]string, error) {
	if !semver.MatchString(version) {
		return nil, fmt.Errorf("version %q is not x.y.z[-pre]", version)
	}
	dirs, err := os.ReadDir(bin)
	if err != nil {
		return nil, err
	}
	var common []entry
	for _, d := range docs {
		b, err := os.ReadFile(d)
		if err != nil {
			return nil, err
		}
		common = append(common, entry{filepath.Base(d), 0o644, b})
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	var paths []string
	var sums strings.Builder
	for _, d := range dirs { // sorted by name
		goos, goarch, ok := strings.Cut(d.Name(), "_")
		if !d.IsDir() || !ok {
			continue
		}
		exe, ext := "kessho", ".tar.gz"
		if goos == "windows" {
			exe, ext = "kessho.exe", ".zip"
		}
		b, err := os.ReadFile(filepath.Join(bin, d.Name(), exe))
		if err != nil {
			return nil, err
		}
		files := append([]entry{{exe, 0o755, b}}, common...)
		var archive []byte
		if ext == ".zip" {
			archive, err = zipOf(files)
		} else {
			archive, err = tarGzOf(files)
		}
		if err != nil {
			return nil, err
		}
		name := fmt.Sprintf("kessho_%s_%s_%s%s", version, goos, goarch, ext)
		path := filepath.Join(out, name)
		if err := os.WriteFile(path, archive, 0o644); err != nil {
			return nil, err
		}
		fmt.Fprintf(&sums, "%x  %s\n", sha256.Sum256(archive), name)
		paths = append(paths, path)
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("%s holds no <os>_<arch> folder", bin)
	}
	return paths, os.WriteFile(filepath.Join(out, "SHA256SUMS"), []byte(sums.String()), 0o644)
}

func tarGzOf(files []entry) ([]byte, error) {
	var buf bytes.Buffer
	gz, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	tw := tar.NewWriter(gz)
	for _, f := range files {
		h := &tar.Header{Name: f.name, Mode: f.mode, Size: int64(len(f.data)), ModTime: epoch, Typeflag: tar.TypeReg, Format: tar.FormatUSTAR}
		if err := tw.WriteHeader(h); err != nil {
			return nil, err
		}
		if _, err := tw.Write(f.data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := gz.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func zipOf(files []entry) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		h := &zip.FileHeader{Name: f.name, Method: zip.Deflate, Modified: epoch}
		h.SetMode(os.FileMode(f.mode))
		w, err := zw.CreateHeader(h)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(f.data); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
