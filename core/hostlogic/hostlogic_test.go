package hostlogic

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/plan"
)

func h(s string) string { return plan.HashString(s) }

// disk is a Disk over a map: path → "folder", "link-folder", "other" or a file's text.
type disk map[string]string

func (d disk) Stat(x string) (Node, error) {
	switch s, ok := d[x]; {
	case !ok:
		return Node{Kind: Absent}, nil
	case s == "folder":
		return Node{Kind: Folder}, nil
	case s == "link-folder":
		return Node{Kind: Folder, Link: true}, nil
	case s == "other":
		return Node{Kind: Other}, nil
	}
	return Node{Kind: File}, nil
}

func (d disk) Hash(x string) (string, error) { return h(d[x]), nil }

func TestCheck(t *testing.T) {
	base := disk{"a.md": "A", "d": "folder", "d/x.md": "X", "ln": "link-folder", "sp": "other"}
	w := plan.WriteOp
	for _, c := range []struct {
		name string
		p    plan.Plan
		code fault.Code
		path string
	}{
		{"write over the file read", plan.Plan{w("a.md", h("A"), "B")}, "", ""},
		{"write of a new file in a new folder", plan.Plan{w("n/m.md", plan.Absent, "B")}, "", ""},
		{"file changed", plan.Plan{w("a.md", h("other"), "B")}, fault.Conflict, "a.md"},
		{"file there where nothing was", plan.Plan{w("a.md", plan.Absent, "B")}, fault.Conflict, "a.md"},
		{"write under a file", plan.Plan{w("a.md/x.md", plan.Absent, "B")}, fault.Conflict, "a.md"},
		{"write under a special file", plan.Plan{w("sp/x.md", plan.Absent, "B")}, fault.Conflict, "sp"},
		{"a later op sees an earlier write", plan.Plan{w("a.md", h("A"), "B"), w("a.md", h("B"), "C")}, "", ""},
		{"a later op sees an earlier move", plan.Plan{{Op: plan.Move, From: "d", To: "e/d", Expect: plan.Absent}, w("e/d/x.md", h("X"), "Y")}, "", ""},
		{"the moved source is gone", plan.Plan{{Op: plan.Move, From: "d", To: "e/d", Expect: plan.Absent}, plan.CheckOp("d/x.md", plan.Absent)}, "", ""},
		{"move of nothing", plan.Plan{{Op: plan.Move, From: "z", To: "y", Expect: plan.Absent}}, fault.Conflict, "z"},
		{"move onto a file", plan.Plan{{Op: plan.Move, From: "d", To: "a.md", Expect: plan.Absent}}, fault.Conflict, "a.md"},
		{"move of a link", plan.Plan{{Op: plan.Move, From: "ln", To: "l2", Expect: plan.Absent}}, fault.InvalidArgument, "ln"},
		{"delete after a delete", plan.Plan{{Op: plan.Delete, Path: "a.md", Expect: h("A")}, {Op: plan.Delete, Path: "a.md", Expect: h("A")}}, fault.Conflict, "a.md"},
		{"check a folder as a file", plan.Plan{plan.CheckOp("d", h("X"))}, fault.Conflict, "d"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := Check(c.p, base)
			if c.code == "" {
				if err != nil {
					t.Fatalf("Check = %v; want nil", err)
				}
				return
			}
			e, ok := fault.As(err)
			if !ok || e.Code != c.code || e.Details["path"] != c.path {
				t.Fatalf("Check = %v; want %s naming %s", err, c.code, c.path)
			}
		})
	}
}

func TestCheckPlanLooksThenAnswers(t *testing.T) {
	p := plan.Plan{plan.WriteOp("d/a.md", h("A"), "B")}
	if got, _ := json.Marshal(firstLooks(p)); string(got) != `[{"path":"d"},{"path":"d/a.md","hash":true}]` {
		t.Errorf("first looks = %s", got)
	}
	if err := Check(p, &nodes{m: map[string]string{"d": "folder", "d/a.md": h("A")}}); err != nil {
		t.Errorf("Check = %v; want nil", err)
	}
	if e, _ := fault.As(Check(p, &nodes{m: map[string]string{"d": "folder", "d/a.md": h("C")}})); e == nil || e.Code != fault.Conflict {
		t.Errorf("Check = %v; want CONFLICT", e)
	}
	bad := []byte(`{"start":{"plan":[{"op":"mkdir","path":"m"}],"journals":[]},"now":"2026-11-30T10:15:00Z","wall":"2026-11-30T10:15:00Z","random":"00"}`)
	if got := string(Step(bad, nil)); !strings.Contains(got, `unknown op \\\"mkdir\\\"`) || !strings.Contains(got, `"end"`) {
		t.Errorf("a plan with mkdir: %s; want it refused as an unknown op", got)
	}
}

func TestWhere(t *testing.T) {
	w := plan.WriteOp("a.md", h("A"), "B")
	mv := plan.Op{Op: plan.Move, From: "f", To: "t", Expect: plan.Absent}
	for _, c := range []struct {
		name  string
		op    plan.Op
		state map[string]string
		want  At
	}{
		{"write not landed", w, map[string]string{"a.md": h("A")}, AtBefore},
		{"write landed", w, map[string]string{"a.md": h("B")}, AtAfter},
		{"write, file edited since", w, map[string]string{"a.md": h("C")}, AtNeither},
		{"write, file gone", w, map[string]string{"a.md": plan.Absent}, AtNeither},
		{"move not landed", mv, map[string]string{"f": "file", "t": plan.Absent}, AtBefore},
		{"move landed", mv, map[string]string{"f": plan.Absent, "t": "folder"}, AtAfter},
		{"move, both ends there", mv, map[string]string{"f": "file", "t": "file"}, AtNeither},
		{"move of a special file", mv, map[string]string{"f": "other", "t": plan.Absent}, AtNeither},
	} {
		if got := Where(c.op, StateOf(c.op), func(x string) string { return c.state[x] }); got != c.want {
			t.Errorf("%s: Where = %d; want %d", c.name, got, c.want)
		}
	}
}

func TestCopyName(t *testing.T) {
	now := time.Date(2026, 11, 30, 10, 15, 7, 0, time.FixedZone("CET", 3600))
	for _, c := range []struct {
		x    string
		n    int
		want string
	}{
		{"notes/a.md", 1, "notes/a.kessho-conflict-20261130T091507Z.md"},
		{"notes/a.md", 3, "notes/a.kessho-conflict-20261130T091507Z-3.md"},
		{"top.md", 1, "top.kessho-conflict-20261130T091507Z.md"},
		{"proj/x", 2, "proj/x.kessho-conflict-20261130T091507Z-2.md"},
	} {
		if got := CopyName(c.x, now, c.n); got != c.want {
			t.Errorf("CopyName(%q, %d) = %q; want %q", c.x, c.n, got, c.want)
		}
	}
	if got := CopyText("J", plan.Op{Op: plan.Move, From: "a", To: "b"}); !strings.HasPrefix(got, "Kessho's interrupted change (journal J) was to move a to b;") {
		t.Errorf("CopyText(move) = %q", got)
	}
	if got := CopyText("J", plan.WriteOp("a", plan.Absent, "exact\n")); got != "exact\n" {
		t.Errorf("CopyText(write) = %q; want the text", got)
	}
}

func TestDecode(t *testing.T) {
	const id = "20260101T000000.000000000Z-00000001"
	del := `{"op":"delete","path":"a.md","expect":"` + h("A") + `"}`
	for _, c := range []struct {
		name, text, why string // why: "" for a journal read
	}{
		{"version 1", `{"version":1,"id":"` + id + `","plan":[` + del + `]}`, ""},
		{"version 2", `{"version":2,"id":"` + id + `","plan":[` + del + `],"states":[{"before":"` + h("A") + `","after":"absent"}]}`, ""},
		{"not JSON", `{`, "is not valid JSON"},
		{"version 3", `{"version":3,"id":"` + id + `","plan":[]}`, "has version 3"},
		{"other id", `{"version":1,"id":"x","plan":[]}`, `names itself "x"`},
		{"mkdir", `{"version":1,"id":"` + id + `","plan":[{"op":"mkdir","path":"m"}]}`, `unknown op "mkdir"`},
		{"v1 with states", `{"version":1,"id":"` + id + `","plan":[` + del + `],"states":[{"before":"` + h("A") + `","after":"absent"}]}`, "has version 1 and states"},
		{"v2 states wrong", `{"version":2,"id":"` + id + `","plan":[` + del + `],"states":[{"before":"absent","after":"absent"}]}`, "do not match its plan"},
	} {
		j, err := Decode(id, []byte(c.text))
		switch {
		case c.why == "" && (err != nil || !slices.Equal(j.States, []OpState{{Before: h("A"), After: plan.Absent}})):
			t.Errorf("%s: Decode = %v, %v", c.name, j, err)
		case c.why != "":
			e, ok := fault.As(err)
			if !ok || e.Code != fault.Internal || !strings.Contains(e.En, c.why) || e.Details["path"] != ".kessho/journal/"+id+".json" {
				t.Errorf("%s: Decode error = %v; want a bad journal saying %q", c.name, err, c.why)
			}
		}
	}
}

func TestProgressAndRecord(t *testing.T) {
	for text, want := range map[string]int{"": 0, "0\n1\n": 2, "0\n1": 1, "0\n2\n": 1, "1\n": 0} {
		if done, size := Progress([]byte(text)); done != want || int(size) != 2*want {
			t.Errorf("Progress(%q) = %d, %d; want %d", text, done, size, want)
		}
	}
	j := &Journal{ID: "J", Plan: plan.Plan{plan.WriteOp("a.md", plan.Absent, "x"), plan.WriteOp("b.md", plan.Absent, "y")}}
	rec := func(op int, p string) []byte { return Record{Op: op, Path: p, Copy: "c.md"}.JSON() }
	for _, c := range []struct {
		data []byte
		done int
		want Resume
		bad  bool
	}{
		{nil, 1, NoRecord, false},
		{rec(1, "b.md"), 1, Pending, false},
		{rec(0, "a.md"), 1, Stale, false},
		{rec(1, "a.md"), 1, 0, true},
		{rec(2, "b.md"), 2, 0, true},
		{[]byte("{"), 0, 0, true},
	} {
		_, got, err := ReadRecord(j, c.data, c.done)
		if (err != nil) != c.bad || (!c.bad && got != c.want) {
			t.Errorf("ReadRecord(%s, %d) = %d, %v; want %d (bad %v)", c.data, c.done, got, err, c.want, c.bad)
		}
	}
}

func TestSweep(t *testing.T) {
	ids, remove := Sweep([]string{"b.json", "a.json", "a.done", "c.done", "c.conflict", ".kessho-tmp-1", ".x.json"})
	if !slices.Equal(ids, []string{"a", "b"}) || !slices.Equal(remove, []string{".kessho-tmp-1", "c.conflict", "c.done"}) {
		t.Errorf("Sweep = %q, %q", ids, remove)
	}
}

func TestFinalStates(t *testing.T) {
	p := plan.Plan{
		plan.WriteOp("p/x/a.md", h("A"), "A2"),
		{Op: plan.Delete, Path: "old.md", Expect: h("O")},
		{Op: plan.Move, From: "p/x", To: "q/x", Expect: plan.Absent},
		plan.CheckOp("c.md", h("C")),
	}
	want := []PathState{{"old.md", plan.Absent}, {"q/x/a.md", h("A2")}, {"p/x", plan.Absent}, {"q/x", StatePresent}}
	if got := FinalStates(p); !slices.Equal(got, want) {
		t.Errorf("FinalStates = %v; want %v", got, want)
	}
}

func TestRender(t *testing.T) {
	got := string(Render(Changed("a<b>.md"), "fr"))
	want := `{"ok":false,"error":{"code":"CONFLICT","message":"a\u003cb\u003e.md a changé depuis que Kessho l'a lu (un autre programme ou une autre personne l'a écrit) ; rien n'a été écrit, relancez l'appel","details":{"path":"a\u003cb\u003e.md"}}}`
	if got != want {
		t.Errorf("Render = %s\nwant %s", got, want)
	}
}

func TestYoung(t *testing.T) {
	now := time.Date(2026, 11, 30, 9, 15, 0, 500_000_000, time.UTC)
	const id = "20261130T091500.000000000Z-00000001"
	for _, c := range []struct {
		name  string
		names []string
		own   []string
		now   time.Time
		want  bool
	}{
		{"another host's, 500 ms old", []string{id + ".json"}, nil, now, true},
		{"11 s old", []string{id + ".json"}, nil, now.Add(11 * time.Second), false},
		{"from the future", []string{id + ".json"}, nil, now.Add(-time.Hour), true},
		{"the asker's own", []string{id + ".json"}, []string{id}, now, false},
		{"stopped on a conflict", []string{id + ".json", id + ".conflict"}, nil, now, false},
		{"an id without a time", []string{"x.json"}, nil, now, false},
	} {
		if got := Young(c.names, c.own, c.now, 10*time.Second); got != c.want {
			t.Errorf("%s: Young = %v; want %v", c.name, got, c.want)
		}
	}
}

func TestUndo(t *testing.T) {
	mv := plan.Op{Op: plan.Move, From: "f", To: "t", Expect: plan.Absent}
	for _, c := range []struct {
		name  string
		op    plan.Op
		nodes map[string]string
		want  string
	}{
		{"a write that made a file", plan.WriteOp("a.md", plan.Absent, "B"), map[string]string{"a.md": h("B")}, `{"do":"remove","path":"a.md"}`},
		{"a write that replaced one", plan.WriteOp("a.md", h("A"), "B"), map[string]string{"a.md": h("B")}, `{"do":"restore","path":"a.md","expect":"` + h("B") + `"}`},
		{"a write edited since", plan.WriteOp("a.md", h("A"), "B"), map[string]string{"a.md": h("C")}, `{"do":"none"}`},
		{"a delete", plan.Op{Op: plan.Delete, Path: "a.md", Expect: h("A")}, map[string]string{"a.md": plan.Absent}, `{"do":"restore","path":"a.md","expect":"absent"}`},
		{"a delete, the file back since", plan.Op{Op: plan.Delete, Path: "a.md", Expect: h("A")}, map[string]string{"a.md": h("Z")}, `{"do":"none"}`},
		{"a move", mv, map[string]string{"f": plan.Absent, "t": "file"}, `{"do":"move","path":"f","from":"t"}`},
		{"a move, its source made again", mv, map[string]string{"f": "file", "t": "file"}, `{"do":"none"}`},
		{"a check", plan.Op{Op: plan.Check, Path: "a.md", Expect: h("A")}, map[string]string{"a.md": h("A")}, `{"do":"none"}`},
	} {
		if got, _ := json.Marshal(UndoOf(c.op, func(x string) string { return c.nodes[x] })); string(got) != c.want {
			t.Errorf("%s: undo = %s; want %s", c.name, got, c.want)
		}
	}
	if got := TempDirs(plan.Plan{plan.WriteOp("a/x.md", plan.Absent, ""), mv, plan.WriteOp("y.md", plan.Absent, ""), plan.WriteOp("a/z.md", plan.Absent, "")}); !slices.Equal(got, []string{"a", "."}) {
		t.Errorf("TempDirs = %q; want [a .]", got)
	}
}

// TestUndoPlan: the undos of a live apply's landed ops, on the wire
// (undo_plan), and the refusal that ends the call. Once a landed op's file
// was edited since (kept as it is), the files the plan made are kept too,
// and the refusal says so rather than "nothing was written".
func TestUndoPlan(t *testing.T) {
	arch := plan.WriteOp("p/archives/x.md", plan.Absent, "archive")
	atom := plan.WriteOp("p/atoms/y.md", plan.Absent, "atom")
	hist := plan.WriteOp("p/history.md", h("H0"), "H0\nline")
	mv := plan.Op{Op: plan.Move, From: "f", To: "t", Expect: plan.Absent}
	undone := map[string]string{"p/archives/x.md": h("archive"), "p/atoms/y.md": h("atom"), "p/history.md": h("H0\nline")}
	edited := map[string]string{"p/archives/x.md": h("archive"), "p/atoms/y.md": h("atom"), "p/history.md": h("H0\nline\ntheirs")}
	archEdited := map[string]string{"p/archives/x.md": h("theirs"), "p/atoms/y.md": h("atom"), "p/history.md": h("H0\nline")}
	for _, c := range []struct {
		name         string
		ops          plan.Plan
		nodes        map[string]string
		why          string
		prior        []string // edited already, as a host re-asks after a restore that lost its race
		undos        string
		edited, kept string
		code         fault.Code
		partway      bool
		enHas, frHas string
	}{
		{"every op undone", plan.Plan{arch, atom, hist}, undone, "changed", nil,
			`[{"do":"remove","path":"p/archives/x.md"},{"do":"remove","path":"p/atoms/y.md"},{"do":"restore","path":"p/history.md","expect":"` + h("H0\nline") + `"}]`,
			`[]`, `[]`, fault.Conflict, false, "nothing was written", "rien n'a été écrit"},
		{"history edited: the archive and the atom kept", plan.Plan{arch, atom, hist}, edited, "changed", nil,
			`[{"do":"keep","path":"p/archives/x.md"},{"do":"keep","path":"p/atoms/y.md"},{"do":"none"}]`,
			`["p/history.md"]`, `["p/archives/x.md","p/atoms/y.md"]`, fault.Conflict, true,
			"except p/history.md: changed since Kessho wrote it, and kept as it is; and p/archives/x.md, p/atoms/y.md: files Kessho made, kept because",
			"sauf p/history.md : modifié depuis que Kessho l'a écrit, et gardé tel quel ; et p/archives/x.md, p/atoms/y.md : des fichiers créés par Kessho"},
		{"the made archive edited: the atom it may name kept, whatever the order", plan.Plan{arch, atom, hist}, archEdited, "changed", nil,
			`[{"do":"none"},{"do":"keep","path":"p/atoms/y.md"},{"do":"restore","path":"p/history.md","expect":"` + h("H0\nline") + `"}]`,
			`["p/archives/x.md"]`, `["p/atoms/y.md"]`, fault.Conflict, true, "(another program or person wrote it after Kessho read it)", "(un autre programme"},
		{"an edit and nothing made", plan.Plan{hist, mv}, map[string]string{"p/history.md": h("theirs"), "f": plan.Absent, "t": "file"}, "exists", nil,
			`[{"do":"none"},{"do":"move","path":"f","from":"t"}]`,
			`["p/history.md"]`, `[]`, fault.Conflict, true, "kept as it is; look at it before you run the call again", "regardez-le avant"},
		{"a restore lost its race: the files left to undo are kept", plan.Plan{arch, atom}, undone, "changed", []string{"p/history.md"},
			`[{"do":"keep","path":"p/archives/x.md"},{"do":"keep","path":"p/atoms/y.md"}]`,
			`["p/history.md"]`, `["p/archives/x.md","p/atoms/y.md"]`, fault.Conflict, true, "except p/history.md", "sauf p/history.md"},
		{"a full disk, every op undone", plan.Plan{arch, hist}, undone, "disk_full", nil,
			`[{"do":"remove","path":"p/archives/x.md"},{"do":"restore","path":"p/history.md","expect":"` + h("H0\nline") + `"}]`,
			`[]`, `[]`, fault.DiskFull, false, "nothing was written: free some space, then run the call again (it is safe to retry)", "rien n'a été écrit : libérez de la place"},
		{"a full disk and an edit", plan.Plan{arch, hist}, edited, "disk_full", nil,
			`[{"do":"keep","path":"p/archives/x.md"},{"do":"none"}]`,
			`["p/history.md"]`, `["p/archives/x.md"]`, fault.DiskFull, true, "(the disk is full there: free some space first)", "(le disque y est plein"},
	} {
		t.Run(c.name, func(t *testing.T) {
			u := UndoPlan(c.ops, func(x string) string { return c.nodes[x] }, c.prior, nil)
			undos, _ := json.Marshal(u.Undos)
			edited, _ := json.Marshal(nonNil(u.Edited))
			kept, _ := json.Marshal(nonNil(u.Kept))
			stop := u.Stop(map[string]func(string) *fault.Error{"changed": Changed, "exists": Exists, "disk_full": DiskFull}[c.why]("ctx.md"))
			if string(undos) != c.undos || string(edited) != c.edited || string(kept) != c.kept {
				t.Errorf("undos %s edited %s kept %s\nwant  %s edited %s kept %s", undos, edited, kept, c.undos, c.edited, c.kept)
			}
			if stop.Code != c.code || stop.Details["path"] != "ctx.md" || !strings.Contains(stop.En, c.enHas) || !strings.Contains(stop.Fr, c.frHas) {
				t.Errorf("stop = %+v; want %s at ctx.md, saying %q / %q", stop, c.code, c.enHas, c.frHas)
			}
			if said := strings.Contains(stop.En, "nothing was written"); said == c.partway || (stop.Details["edited"] != nil) != c.partway {
				t.Errorf("stop says %q, details %v: something stays = %v", stop.En, stop.Details, c.partway)
			}
		})
	}
	looks, _ := json.Marshal(UndoLooks(plan.Plan{{Op: plan.Move, From: "f", To: "a.md", Expect: plan.Absent}, plan.WriteOp("a.md", plan.Absent, "")}))
	if want := `[{"path":"f"},{"path":"a.md","hash":true}]`; string(looks) != want {
		t.Errorf("the looks: %s; want %s", looks, want)
	}
}
