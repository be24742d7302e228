// Package conformance loads the cross-host conformance cases of
// testdata/cases: each a txtar archive holding a vault, a call and what
// must come of it. The Go tests run every case through both engines; the
// Obsidian plugin's tests run the same files through its TypeScript host.
//
// A case:
//
//	# what the case proves (the archive's comment)
//	-- call.json --
//	{"tool":"mem_update_phase","args":{…},"now":"2026-11-30T10:15:00+01:00","tz":"Europe/Paris","lang":"en"}
//	-- answer.json --
//	{
//	  "ok": true,
//	  "result": {…}                   (the answer hosts print, without the plan,
//	}                                  stored indented: see below)
//	-- vault/10-episodes/projects/a/context.md --
//	…the vault before the call…
//	-- want/10-episodes/projects/a/context.md --
//	…a file as it must be after the call…
//	-- deleted/10-episodes/projects/a/old.md --
//	(a file the call must remove)
//
// The vault after the call must hold exactly the vault before, with every
// want/ file laid over it and every deleted/ file gone: a case with neither
// proves that the call wrote nothing.
//
// answer.json is stored indented (json.Indent, two spaces), so that an
// updated answer reads as a diff of lines; hosts print it compact, and the
// loaders compact it (json.Compact: only the white space between tokens
// goes, strings and numbers keep their bytes) before comparing it byte for
// byte with what a host printed.
//
// A file name may end with flags in brackets, which apply to its bytes:
// `[crlf]` turns every "\n" into "\r\n", `[cr]` into a lone "\r" (old Mac
// line endings), `[bom]` prefixes a UTF-8 BOM,
// `[noeol]` drops the final newline, `[latin1]` encodes the text as
// ISO-8859-1 (to make a file that is not UTF-8). For example
// `-- vault/10-episodes/projects/a/context.md [crlf,bom] --`.
package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/host/call"
)

// Call is a case's call.json.
type Call struct {
	Tool string          `json:"tool"`
	Args json.RawMessage `json:"args"`
	Now  string          `json:"now"`
	TZ   string          `json:"tz"`
	Lang string          `json:"lang"`
}

// Case is one conformance case.
type Case struct {
	Name    string
	File    string // the txtar's path
	Comment string
	Call    Call
	Answer  string            // expected answer.json, compacted
	Vault   map[string][]byte // before
	Want    map[string][]byte // after
	archive *txtar.Archive
}

// Load reads every case of dir (*.txtar), sorted by name.
func Load(dir string) ([]*Case, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var cases []*Case
	for _, n := range names {
		c, err := LoadFile(n)
		if err != nil {
			return nil, err
		}
		cases = append(cases, c)
	}
	return cases, nil
}

// LoadFile reads one case.
func LoadFile(path string) (*Case, error) {
	a, err := txtar.ParseFile(path)
	if err != nil {
		return nil, err
	}
	c := &Case{
		Name: strings.TrimSuffix(filepath.Base(path), ".txtar"), File: path, Comment: string(a.Comment),
		Vault: map[string][]byte{}, archive: a,
	}
	var deleted []string
	want := map[string][]byte{}
	haveCall := false
	for _, f := range a.Files {
		name, data, err := DecodeSection(f.Name, f.Data)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		switch {
		case name == "call.json":
			if err := json.Unmarshal(data, &c.Call); err != nil {
				return nil, fmt.Errorf("%s: call.json: %v", path, err)
			}
			haveCall = true
		case name == "answer.json":
			if c.Answer, err = compactAnswer(data); err != nil {
				return nil, fmt.Errorf("%s: %v", path, err)
			}
		case strings.HasPrefix(name, "vault/"):
			c.Vault[strings.TrimPrefix(name, "vault/")] = data
		case strings.HasPrefix(name, "want/"):
			want[strings.TrimPrefix(name, "want/")] = data
		case strings.HasPrefix(name, "deleted/"):
			deleted = append(deleted, strings.TrimPrefix(name, "deleted/"))
		default:
			return nil, fmt.Errorf("%s: unknown section %q (call.json, answer.json, vault/…, want/…, deleted/…)", path, f.Name)
		}
	}
	if !haveCall {
		return nil, fmt.Errorf("%s: no call.json", path)
	}
	c.Want = map[string][]byte{}
	for p, d := range c.Vault {
		c.Want[p] = d
	}
	for p, d := range want {
		c.Want[p] = d
	}
	for _, p := range deleted {
		if _, ok := c.Want[p]; !ok {
			return nil, fmt.Errorf("%s: deleted/%s is not in the vault", path, p)
		}
		delete(c.Want, p)
	}
	return c, nil
}

// DecodeSection applies a section name's [flags] to its data and returns
// the name without them (the host cases, testdata/hostcases, use it too).
func DecodeSection(name string, data []byte) (string, []byte, error) {
	base, flags, ok := strings.Cut(name, " [")
	if !ok {
		return name, data, nil
	}
	flags, ok = strings.CutSuffix(flags, "]")
	if !ok {
		return "", nil, fmt.Errorf("section %q: flags must end with ]", name)
	}
	for _, f := range strings.Split(flags, ",") {
		switch strings.TrimSpace(f) {
		case "crlf":
			data = []byte(strings.ReplaceAll(string(data), "\n", "\r\n"))
		case "cr":
			data = []byte(strings.ReplaceAll(string(data), "\n", "\r"))
		case "bom":
			data = append([]byte("\ufeff"), data...)
		case "noeol":
			data = []byte(strings.TrimSuffix(strings.TrimSuffix(string(data), "\n"), "\r"))
		case "latin1":
			var out []byte
			for _, r := range string(data) {
				if r > 0xff {
					return "", nil, fmt.Errorf("section %q: %q is not Latin-1", name, r)
				}
				out = append(out, byte(r))
			}
			data = out
		default:
			return "", nil, fmt.Errorf("section %q: unknown flag %q (crlf, cr, bom, noeol, latin1)", name, f)
		}
	}
	return base, data, nil
}

// Options returns the options of the case's call: its now, zone and
// language.
func (c *Case) Options() (call.Options, error) {
	now, err := time.Parse(time.RFC3339, c.Call.Now)
	if err != nil {
		return call.Options{}, fmt.Errorf("call.json now: %w", err)
	}
	return call.Options{Now: now, TZ: c.Call.TZ, Lang: c.Call.Lang}, nil
}

// WriteVault lays the case's vault out in dir.
func (c *Case) WriteVault(dir string) error {
	for p, d := range c.Vault {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(full, d, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// ReadTree returns every file under dir except dot-folders' content (such
// as .kessho), by vault-relative path, but for Kessho's undo records
// (.kessho/undo/, which plans write as they write notes: a case states
// them in want/). Dot-files outside dot-folders are included, so a stray
// temp file shows.
func ReadTree(dir string) (map[string][]byte, error) {
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			rel = filepath.ToSlash(rel)
			undo := rel == ".kessho" || rel == plan.UndoDir || plan.IsUndo(rel)
			if p != dir && strings.HasPrefix(d.Name(), ".") && !undo {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		if strings.HasPrefix(filepath.ToSlash(rel), ".kessho/") && !plan.IsUndo(filepath.ToSlash(rel)) {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[filepath.ToSlash(rel)] = data
		return nil
	})
	return out, err
}

// SetWant replaces the case's want/ and deleted/ sections with what makes
// after the expected vault (for -update-want; review the diff before
// committing: a golden file is only as right as the eyes that read it).
func (c *Case) SetWant(after map[string][]byte) error {
	var files []txtar.File
	for _, f := range c.archive.Files {
		if !strings.HasPrefix(f.Name, "want/") && !strings.HasPrefix(f.Name, "deleted/") {
			files = append(files, f)
		}
	}
	var paths []string
	for p := range after {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		if before, ok := c.Vault[p]; ok && string(before) == string(after[p]) {
			continue
		}
		name, data := encodeFlags("want/"+p, after[p])
		files = append(files, txtar.File{Name: name, Data: data})
	}
	var gone []string
	for p := range c.Vault {
		if _, ok := after[p]; !ok {
			gone = append(gone, p)
		}
	}
	sort.Strings(gone)
	for _, p := range gone {
		files = append(files, txtar.File{Name: "deleted/" + p})
	}
	c.archive.Files = files
	c.Want = after
	return os.WriteFile(c.File, txtar.Format(c.archive), 0o644)
}

// encodeFlags is decode's inverse for the flags the data needs.
func encodeFlags(name string, data []byte) (string, []byte) {
	s := string(data)
	var flags []string
	if t, ok := strings.CutPrefix(s, "\ufeff"); ok {
		s, flags = t, append(flags, "bom")
	}
	if strings.Contains(s, "\r\n") && !strings.Contains(strings.ReplaceAll(s, "\r\n", ""), "\n") {
		s, flags = strings.ReplaceAll(s, "\r\n", "\n"), append(flags, "crlf")
	} else if strings.Contains(s, "\r") && !strings.Contains(s, "\n") {
		s, flags = strings.ReplaceAll(s, "\r", "\n"), append(flags, "cr")
	}
	if s != "" && !strings.HasSuffix(s, "\n") {
		s, flags = s+"\n", append(flags, "noeol")
	}
	if len(flags) > 0 {
		name += " [" + strings.Join(flags, ",") + "]"
	}
	return name, []byte(s)
}

// SetAnswer replaces the case's answer.json in its file, indented (for
// -update).
func (c *Case) SetAnswer(answer string) error {
	data, err := indentAnswer(answer)
	if err != nil {
		return err
	}
	found := false
	for i := range c.archive.Files {
		if c.archive.Files[i].Name == "answer.json" {
			c.archive.Files[i].Data = data
			found = true
		}
	}
	if !found {
		// Put it right after call.json.
		var files []txtar.File
		for _, f := range c.archive.Files {
			files = append(files, f)
			if f.Name == "call.json" {
				files = append(files, txtar.File{Name: "answer.json", Data: data})
			}
		}
		c.archive.Files = files
	}
	c.Answer = answer
	return os.WriteFile(c.File, txtar.Format(c.archive), 0o644)
}

// compactAnswer returns answer.json as hosts print it: compact. An empty
// section stays empty.
func compactAnswer(data []byte) (string, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return "", nil
	}
	var b bytes.Buffer
	if err := json.Compact(&b, data); err != nil {
		return "", fmt.Errorf("answer.json: %v", err)
	}
	return b.String(), nil
}

// indentAnswer returns answer as answer.json stores it: indented by two
// spaces, with a final newline.
func indentAnswer(answer string) ([]byte, error) {
	var b bytes.Buffer
	if err := json.Indent(&b, []byte(answer), "", "  "); err != nil {
		return nil, fmt.Errorf("answer.json: %v", err)
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}
