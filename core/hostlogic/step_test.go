package hostlogic

import (
	"bytes"
	"encoding/json"
	"path"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/wire"
)

// memPort is a host's port to a vault in memory, running a step's I/O as
// the plugin's executor does (src/host/apply.ts).
type memPort struct {
	files map[string][]byte
	dirs  map[string]bool
	own   map[string]bool
	// fail, when it says so, fails an op as the port would.
	fail func(op wire.IO) *wire.IOError
	// need, when set, runs a need's ops (need_test.go's snapshot).
	need func(op wire.IO) wire.IOResult
	ops  []string
	// A call's: the core's answers to its rounds, in order, the requests
	// they got, what the last round handed back, each step's state.
	answers, requests []string
	printed, index    string
	states            []string
}

func newMemPort(files map[string]string) *memPort {
	d := &memPort{files: map[string][]byte{}, dirs: map[string]bool{}, own: map[string]bool{}}
	for p, t := range files {
		d.files[p] = []byte(t)
	}
	return d
}

func (d *memPort) kind(p string) string {
	if _, ok := d.files[p]; ok {
		return "file"
	}
	if p == "." || d.dirs[p] {
		return StateFolder
	}
	for f := range d.files {
		if under(f, p) {
			return StateFolder
		}
	}
	return plan.Absent
}

func (d *memPort) names(dir string) []string {
	var out []string
	for f := range d.files {
		if path.Dir(f) == dir {
			out = append(out, path.Base(f))
		}
	}
	slices.Sort(out)
	return out
}

func (d *memPort) mkdir(p string) []string {
	var made []string
	for x := p; x != "." && d.kind(x) == plan.Absent; x = path.Dir(x) {
		made = append([]string{x}, made...)
	}
	for _, x := range made {
		d.dirs[x] = true
	}
	return made
}

func (d *memPort) exec(op wire.IO) wire.IOResult {
	d.ops = append(d.ops, op.Op+" "+op.Path)
	if d.fail != nil {
		if e := d.fail(op); e != nil {
			return wire.IOResult{Err: e}
		}
	}
	if d.need != nil && strings.HasPrefix(op.Op, "need_") {
		return d.need(op)
	}
	text := func() string { return *op.Text }
	switch op.Op {
	case wire.IOLook:
		s := d.kind(op.Path)
		if s == "file" && op.Hash != "" {
			s = plan.Hash(d.files[op.Path])
		}
		return wire.IOResult{V: s}
	case wire.IOKind:
		return wire.IOResult{V: d.kind(op.Path)}
	case wire.IORead:
		return wire.IOResult{V: plan.Hash(d.files[op.Path]), Data: d.files[op.Path]}
	case wire.IOModify:
		prior := string(d.files[op.Path])
		if plan.Hash(d.files[op.Path]) != op.Hash {
			return wire.IOResult{Err: &wire.IOError{Stale: "changed", Path: op.Path, Message: "changed: " + op.Path}}
		}
		d.files[op.Path] = []byte(text())
		return wire.IOResult{Text: &prior}
	case wire.IOCreate:
		if d.kind(op.Path) != plan.Absent {
			return wire.IOResult{Err: &wire.IOError{Stale: "exists", Path: op.Path, Message: "exists: " + op.Path}}
		}
		d.files[op.Path] = op.Data
		if op.Text != nil {
			d.files[op.Path] = []byte(text())
		}
	case wire.IORemove, wire.IOStRemove:
		delete(d.files, op.Path)
	case wire.IOMove:
		d.files[op.To] = d.files[op.Path]
		delete(d.files, op.Path)
	case wire.IOMkdir:
		return wire.IOResult{List: d.mkdir(op.Path)}
	case wire.IORmdir:
		if len(d.names(op.Path)) == 0 {
			delete(d.dirs, op.Path)
		}
	case wire.IOList:
		return wire.IOResult{List: d.names(op.Path)}
	case wire.IOStateList:
		b, _ := json.Marshal(append([]string{}, d.names(op.Path)...))
		return wire.IOResult{V: string(b)}
	case wire.IOStateRead:
		b, ok := d.files[op.Path]
		if !ok {
			return wire.IOResult{V: plan.Absent}
		}
		s := string(b)
		return wire.IOResult{Text: &s}
	case wire.IOWrite:
		d.files[op.Path] = []byte(text())
	case wire.IOAppend:
		d.files[op.Path] = append(d.files[op.Path], text()...)
	case wire.IORename:
		d.files[op.To] = d.files[op.Path]
		delete(d.files, op.Path)
	case wire.IOOwn, wire.IODisown:
		d.own[op.Path] = op.Op == wire.IOOwn
	}
	return wire.IOResult{}
}

// steps runs start's steps over d as the plugin does, from now (each
// crossing 100 ms later); it returns how the steps ended and how many
// crossings they took. A call's rounds are d's answers, in order: the
// first sent with the start when no journal is listed, as the plugin
// does; what the step that ran the last one handed back is d.printed.
func (d *memPort) steps(t *testing.T, start wire.StepStart, now time.Time) (wire.StepEnd, int) {
	t.Helper()
	in := wire.StepIn{Start: &start}
	var round []byte
	if start.Call != nil && len(start.Journals) == 0 {
		round = []byte(roundInput)
	}
	for n := 1; ; n, now = n+1, now.Add(100*time.Millisecond) {
		in.Now = now.Format(time.RFC3339Nano)
		in.Wall, in.Random = in.Now, "00"
		b, _ := json.Marshal(in)
		if round != nil {
			b, round = append(append(b, 0), round...), nil
		}
		j, tail, ran := bytes.Cut(Step(b, d.handle), []byte{0})
		if ran {
			printed, index, _ := bytes.Cut(tail, []byte{0})
			d.printed, d.index = string(printed), string(index)
		}
		var out wire.StepOut
		if err := json.Unmarshal(j, &out); err != nil {
			t.Fatal(err)
		}
		if out.End != nil {
			return *out.End, n
		}
		in = wire.StepIn{State: out.State}
		d.states = append(d.states, out.State)
		foreseen := true
		for _, op := range out.IO {
			if op.Op == wire.IORound {
				d.ops = append(d.ops, op.Op)
				round, foreseen = []byte(roundInput), false
				break
			}
			r := d.exec(op)
			in.Results = append(in.Results, r)
			if op.Expect == nil {
				foreseen = false
			} else if r.V != *op.Expect && !slices.Contains(op.Or, r.V) {
				foreseen = false
				break
			}
			if r.Err != nil {
				foreseen = false
				break
			}
		}
		if foreseen && out.Then != nil {
			return *out.Then, n
		}
		if n > 50 {
			t.Fatal("the steps never end")
		}
	}
}

// roundInput is the round's input the test host sends: the time as the
// plugin's clock gives it, the request's head and its rest.
const roundInput = "2026-11-30T10:15:00.123+01:00\x00{\"tool\":\"t\",\"now\":\x00}"

// handle answers a round's request with the next of d.answers, and
// records the request.
func (d *memPort) handle(req []byte) (wire.Answer, []byte) {
	d.requests = append(d.requests, string(req))
	raw := []byte(`{"ok":false}`)
	if len(d.answers) > 0 {
		raw, d.answers = []byte(d.answers[0]), d.answers[1:]
	}
	var ans wire.Answer
	j, _, _ := bytes.Cut(raw, []byte{0})
	if json.Unmarshal(j, &ans) != nil {
		// As the core's answer would be to a host that could not read it.
		ans = wire.Answer{}
	}
	return ans, raw
}

// journals is what the journal folder holds.
func (d *memPort) journals() []string { return d.names(JournalDir) }

var t0 = time.Date(2026, 11, 30, 9, 15, 7, 0, time.UTC)

func TestStepAppliesAForeseenPlanInOneCrossing(t *testing.T) {
	d := newMemPort(map[string]string{"d/a.md": "A"})
	p := plan.Plan{plan.WriteOp("d/a.md", h("A"), "B"), plan.WriteOp("d/b.md", plan.Absent, "C")}
	end, n := d.steps(t, wire.StepStart{Plan: &p, Journals: []string{}}, t0)
	if !end.OK || n != 1 {
		t.Fatalf("end %+v after %d crossings; want success in 1", end, n)
	}
	if string(d.files["d/a.md"]) != "B" || string(d.files["d/b.md"]) != "C" || len(d.journals()) != 0 {
		t.Fatalf("vault %v", d.files)
	}
	for id, own := range d.own {
		if own {
			t.Errorf("journal %s still owned", id)
		}
	}
}

func TestStepRefusesAChangedFileWritingNothing(t *testing.T) {
	d := newMemPort(map[string]string{"d/a.md": "theirs"})
	p := plan.Plan{plan.WriteOp("d/a.md", h("A"), "B")}
	end, _ := d.steps(t, wire.StepStart{Plan: &p, Journals: []string{}}, t0)
	if e := printedError(t, end.Answer); e.Code != string(fault.Conflict) || e.Details["path"] != "d/a.md" {
		t.Fatalf("end %+v; want CONFLICT at d/a.md", end)
	}
	if string(d.files["d/a.md"]) != "theirs" || len(d.journals()) != 0 {
		t.Fatalf("vault %v", d.files)
	}
}

// A re-check that fails at the last instant, in a later crossing than the
// journal's: the landed op is undone and the same journal (its id drawn
// once, kept in the state) removed.
func TestStepUndoesWhenATargetChangesAsItLands(t *testing.T) {
	d := newMemPort(map[string]string{"a.md": "A", "b.md": "B"})
	d.fail = func(op wire.IO) *wire.IOError {
		if op.Op == wire.IOModify && op.Path == "b.md" {
			d.files["b.md"] = []byte("theirs")
			return &wire.IOError{Stale: "changed", Path: "b.md", Message: "changed: b.md"}
		}
		return nil
	}
	p := plan.Plan{plan.WriteOp("a.md", h("A"), "A2"), plan.WriteOp("b.md", h("B"), "B2")}
	end, n := d.steps(t, wire.StepStart{Plan: &p, Journals: []string{}}, t0)
	if e := printedError(t, end.Answer); e.Code != string(fault.Conflict) || e.Details["path"] != "b.md" || n < 2 {
		t.Fatalf("end %+v after %d; want CONFLICT at b.md", end, n)
	}
	if string(d.files["a.md"]) != "A" || string(d.files["b.md"]) != "theirs" || len(d.journals()) != 0 {
		t.Fatalf("vault %v, journals %v", d.files, d.journals())
	}
}

// recovering is a memPort holding the journal of p, its progress done and
// its conflict record (nil: none).
func recovering(files map[string]string, p plan.Plan, done string, record *Record) (*memPort, string) {
	j := NewJournal(p, t0, "abcd")
	text, _ := json.Marshal(j)
	files[JournalPath(j.ID)] = string(text)
	if done != "" {
		files[jfile(j.ID, "done")] = done
	}
	if record != nil {
		files[jfile(j.ID, "conflict")] = string(record.JSON())
	}
	return newMemPort(files), j.ID
}

func TestStepRecoveryWaitsOnItsPendingCopy(t *testing.T) {
	p := plan.Plan{plan.WriteOp("a.md", h("A"), "B"), plan.WriteOp("b.md", plan.Absent, "C")}
	rec := Record{Op: 0, Path: "a.md", Copy: "a.kessho-conflict-20261130T091507Z.md"}
	d, id := recovering(map[string]string{"a.md": "theirs", rec.Copy: "B"}, p, "", &rec)
	start := wire.StepStart{Journals: d.journals(), WaitMS: 10_000}
	end, _ := d.steps(t, start, t0.Add(time.Hour))
	if e := printedError(t, end.Answer); e.Code != string(fault.RecoveryConflict) {
		t.Fatalf("copy kept: %+v", end)
	}
	delete(d.files, rec.Copy)
	end, _ = d.steps(t, wire.StepStart{Journals: d.journals(), WaitMS: 10_000}, t0.Add(time.Hour))
	if !end.OK {
		t.Fatalf("copy gone: %+v", end)
	}
	if string(d.files["a.md"]) != "theirs" || string(d.files["b.md"]) != "C" || len(d.journals()) != 0 {
		t.Fatalf("journal %s: vault %v", id, d.files)
	}
}

func TestStepConflictCopyTakesTheFirstFreeName(t *testing.T) {
	p := plan.Plan{plan.WriteOp("n/a.md", h("A"), "B")}
	taken := "n/a.kessho-conflict-20261130T101507Z.md"
	d, id := recovering(map[string]string{"n/a.md": "theirs", taken: "x"}, p, "", nil)
	end, _ := d.steps(t, wire.StepStart{Journals: d.journals(), WaitMS: 10_000}, t0.Add(time.Hour))
	copyName := "n/a.kessho-conflict-20261130T101507Z-2.md"
	if e := printedError(t, end.Answer); e.Code != string(fault.RecoveryConflict) || !strings.Contains(e.Message, copyName) {
		t.Fatalf("end %+v; want RECOVERY_CONFLICT naming %s", end, copyName)
	}
	want := `{"op":0,"path":"n/a.md","copy":"` + copyName + `"}`
	if string(d.files[copyName]) != "B" || string(d.files[jfile(id, "conflict")]) != want {
		t.Fatalf("vault %v", d.files)
	}
}

// A young journal of another host is left to it: the steps wait, 100 ms
// a crossing, until it is gone or the wait is up.
func TestStepWaitsOnAYoungJournal(t *testing.T) {
	p := plan.Plan{plan.WriteOp("a.md", h("A"), "B")}
	d, _ := recovering(map[string]string{"a.md": "A"}, p, "", nil)
	end, n := d.steps(t, wire.StepStart{Journals: d.journals(), WaitMS: 300}, t0)
	if !end.OK || string(d.files["a.md"]) != "B" {
		t.Fatalf("end %+v, vault %v", end, d.files)
	}
	if waits := strings.Count(strings.Join(d.ops, "\n"), wire.IOWait); waits == 0 || n < 2 {
		t.Fatalf("%d waits in %d crossings: %v", waits, n, d.ops)
	}
}

// A new file in a folder that may not be there yet: the folder's look is
// foreseen either way, so the apply still takes one crossing.
func TestStepForeseesAFolderAboveANewFileEitherWay(t *testing.T) {
	for _, files := range []map[string]string{{}, {"n/x.md": "x"}} {
		d := newMemPort(files)
		p := plan.Plan{plan.WriteOp("n/new.md", plan.Absent, "N")}
		end, n := d.steps(t, wire.StepStart{Plan: &p, Journals: []string{}}, t0)
		if !end.OK || n != 1 || string(d.files["n/new.md"]) != "N" {
			t.Fatalf("with %v: end %+v after %d crossings, vault %v", files, end, n, d.files)
		}
	}
	d := newMemPort(map[string]string{"n": "a file in the way"})
	p := plan.Plan{plan.WriteOp("n/new.md", plan.Absent, "N")}
	if end, _ := d.steps(t, wire.StepStart{Plan: &p, Journals: []string{}}, t0); printedError(t, end.Answer).Code != string(fault.Conflict) {
		t.Fatalf("a file in the way: %+v", end)
	}
}
