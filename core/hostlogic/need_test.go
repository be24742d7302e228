package hostlogic

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/wire"
)

// snap is a host's snapshot a need's ops read into, as the plugin's
// executor does (plugin-shim/src/host/answer.ts).
type snap struct {
	files   map[string]string
	missing []string
	dirs    map[string][]string
	matches map[string][]string
	// raw: the listings held as the host read them (wire.Snapshot.RawDirs
	// and RawMatches, by the same keys), when the host holds them so.
	raw  map[string][]string
	keep bool
}

// reader runs d's need ops into a new snap.
func reader(d *memPort) *snap {
	s := &snap{files: map[string]string{}, dirs: map[string][]string{}, matches: map[string][]string{}}
	d.need = func(op wire.IO) wire.IOResult {
		into, key := s.dirs, op.Path
		if op.To != "" {
			into, key = s.matches, op.To
		}
		kind := d.kind(op.Path)
		if op.Op == wire.IONeedList && kind == StateFolder && s.keep && op.Expect != nil && *op.Expect == "raw" {
			s.raw[key] = append(d.names(op.Path), ".hidden/")
			return wire.IOResult{V: "raw"}
		}
		switch op.Op {
		case wire.IONeedPut:
			into[key] = op.List
			return wire.IOResult{}
		case wire.IONeedList:
			if kind != StateFolder {
				return s.absentOr(op.Path, kind)
			}
			names := append(d.names(op.Path), ".hidden/")
			for _, x := range d.folders(op.Path) {
				names = append(names, x+"/")
			}
			return wire.IOResult{V: "folder", List: names}
		}
		if kind != "file" {
			return s.absentOr(op.Path, kind)
		}
		s.files[op.Path] = string(d.files[op.Path])
		return wire.IOResult{V: "text"}
	}
	return s
}

func (s *snap) absentOr(p, kind string) wire.IOResult {
	if kind == plan.Absent {
		s.missing = append(s.missing, p)
	}
	return wire.IOResult{V: kind}
}

// folders is the folders right under dir.
func (d *memPort) folders(dir string) []string {
	var out []string
	for f := range d.files {
		for x := f; x != "." && x != dir; x = dirOf(x) {
			if dirOf(x) == dir && !slices.Contains(out, baseOf(x)) && x != f {
				out = append(out, baseOf(x))
			}
		}
	}
	return out
}

func dirOf(x string) string {
	if i := strings.LastIndex(x, "/"); i >= 0 {
		return x[:i]
	}
	return "."
}

func baseOf(x string) string { return x[strings.LastIndex(x, "/")+1:] }

func TestStepsAnswerANeedOneCrossingADepth(t *testing.T) {
	d := newMemPort(map[string]string{"a.md": "A", "b.txt": "B", "t/x.md": "X", "t/s/y.md": "Y", "t/s/u/z.md": "Z"})
	s := reader(d)
	need := wire.Need{
		Files:   []string{"a.md", "gone.md"},
		Trees:   []wire.Tree{{Root: "t", Content: true}},
		Matches: []wire.Match{{Dir: ".", Patterns: []string{"*.md"}}},
	}
	d.answers = []string{needAnswer(t, need), `{"ok":true,"result":1}`}
	end, n := d.steps(t, callStart(), t0)
	if !end.OK || n != 5 || d.printed != `{"ok":true,"result":1}` {
		t.Fatalf("end %+v after %d crossings, printed %s; want success in 5 (the round and the root's listings, then one a depth of t, the last with the next round)", end, n, d.printed)
	}
	want := snap{
		files:   map[string]string{"a.md": "A", "t/x.md": "X", "t/s/y.md": "Y", "t/s/u/z.md": "Z"},
		missing: []string{"gone.md"},
		dirs:    map[string][]string{"t": {"s/", "x.md"}, "t/s": {"u/", "y.md"}, "t/s/u": {"z.md"}},
		matches: map[string][]string{".\n*.md": {"a.md"}},
	}
	if !reflect.DeepEqual(*s, want) {
		t.Fatalf("snapshot %+v; want %+v", *s, want)
	}
}

func TestStepsLeaveARawListingToTheRequest(t *testing.T) {
	d := newMemPort(map[string]string{"a.md": "A", "t/x.md": "X", "t/y.txt": "Y"})
	s := reader(d)
	s.keep, s.raw = true, map[string][]string{}
	need := wire.Need{
		Files:   []string{"a.md"},
		Dirs:    []string{"t"},
		Matches: []wire.Match{{Dir: "t", Patterns: []string{"*.md"}}},
	}
	d.answers = []string{needAnswer(t, need), `{"ok":true,"result":1}`}
	end, n := d.steps(t, callStart(), t0)
	if !end.OK || n != 2 {
		t.Fatalf("end %+v after %d crossings; want success in 2 (the round and its need's ops, then the next round)", end, n)
	}
	if slices.ContainsFunc(d.ops, func(op string) bool { return strings.HasPrefix(op, wire.IONeedPut) }) {
		t.Errorf("ops %q: a listing held raw is put again", d.ops)
	}
	if len(s.dirs)+len(s.matches) != 0 || !reflect.DeepEqual(s.raw, map[string][]string{"t": {"x.md", "y.txt", ".hidden/"}, "t\n*.md": {"x.md", "y.txt", ".hidden/"}}) {
		t.Fatalf("snapshot %+v; want the two listings raw, nothing shown", *s)
	}
}

func TestStepsRefuseANeedAsTheHostDid(t *testing.T) {
	for _, c := range []struct {
		name string
		need wire.Need
		code fault.Code
		path string
		ops  int
	}{
		{"a path the module may not ask for, nothing read", wire.Need{Files: []string{"a.md", ".obsidian/x.md"}}, fault.Internal, ".obsidian/x.md", 0},
		{"a folder as a file, the files after it not read", wire.Need{Files: []string{"t", "a.md"}}, fault.Conflict, "t", 1},
		{"a file as a folder", wire.Need{Dirs: []string{"a.md"}}, fault.Conflict, "a.md", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := newMemPort(map[string]string{"a.md": "A", "t/x.md": "X"})
			reader(d)
			d.answers = []string{needAnswer(t, c.need)}
			end, _ := d.steps(t, callStart(), t0)
			e := printedError(t, end.Answer)
			if e.Code != string(c.code) || e.Details["path"] != c.path || len(d.ops) != c.ops {
				t.Fatalf("end %+v after ops %v; want %s at %s after %d", end, d.ops, c.code, c.path, c.ops)
			}
		})
	}
}

// callStart is the start of a call of tool t with no journal to roll forward.
func callStart() wire.StepStart {
	return wire.StepStart{Lang: "en", Call: &wire.StepCall{Tool: "t", MaxRounds: 8}, Journals: []string{}}
}

// needAnswer is the core's answer asking for need.
func needAnswer(t *testing.T, need wire.Need) string {
	t.Helper()
	b, err := json.Marshal(wire.Answer{Need: &need})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// printedError is the error of a refusal as a host prints it.
func printedError(t *testing.T, printed string) wire.ErrorBody {
	t.Helper()
	var a struct {
		OK    *bool          `json:"ok"`
		Error wire.ErrorBody `json:"error"`
	}
	if err := json.Unmarshal([]byte(printed), &a); err != nil || a.OK == nil || *a.OK {
		t.Fatalf("not a refusal as printed: %q (%v)", printed, err)
	}
	return a.Error
}
