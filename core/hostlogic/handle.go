package hostlogic

import (
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/vault"
	"github.com/kessho/kessho/core/wire"
)

// Handle answers one request of a host that cannot call this package
// natively (the plugin, through the wasm module's call export, its
// wire.EntryHost entry).
// Requests and answers are JSON; every request has a "kind":
//
//	check_plan     {"plan":[…],"nodes":{path:state}}  → {"ok":true} | {"need":[look]} | {"error":e}
//	where          {"op":…,"state":…,"nodes":{…}}     → {"at":"before"|"after"|"neither"} | {"need":[look]}
//	undo_plan      {"plan","edited","kept","why","path","nodes"} → {"undos":[Undo…],"edited","kept","stop":e} (UndoPlan) | {"need":[look]}
//	open_journal   {"id","journal","read_error","done","record","nodes"} → {"journal":…,"from":n,"done":text,"drop_record":bool,"temp_dirs":[…]} | {"need":[look]} | {"error":e}
//	conflict_copy  {"id","plan","k","now","nodes"}    → {"copy","text","record","stop":e} | {"need":[look]}
//	sweep          {"names":[…],"now"?,"wait_ms"?,"own"?} → {"ids":[…],"remove":[…],"young":bool}
//	new_journal    {"plan","now","suffix"}            → {"id","text"}
//	check_need     {"need":…}                         → {"ok":true} | {"error":e}
//	list           {"names":[…],"patterns":[…]|null}  → {"names":[…]}
//	finished       {"plan","path","nodes"}            → {"ok":true} | {"need":[look]} | {"error":e}
//	refuse         {"why","path","max","tool","rounds"} → {"error":e}
//	read_answer    {"answer":text}                    → {"need":…,"search"} | {"ok","printed","plan","conflict","search","raw"} | {"invalid":why}
//	now            {"now":text}                       → {"now":text} (CanonicalNow)
//	render         {"error":e|"internal":text,"lang","conflict"} → the refusal as the host prints it
//
// A state (in "nodes") is what a host found at a path: "absent",
// "folder", "file", "sha256:<hex>" (a file, hashed where the look asked
// for it) or "other". An error e is {"code","en","fr","details"}: the
// host throws it as it is and renders it with render at the call's end;
// anything else it throws it renders as "internal" (fault.Internalf), and
// a CONFLICT of a plan under the code the answer named (ConflictAs).
func Handle(req []byte) []byte {
	var r request
	if err := json.Unmarshal(req, &r); err != nil {
		return answer(map[string]any{"error": wireErr(fault.Internalf("a host request is not valid JSON: %v", err))})
	}
	if r.Kind == wire.KindRender {
		e := faultOf(r.Error)
		if r.Internal != "" {
			e = fault.Internalf("%s", r.Internal)
		}
		e, _ = fault.As(ConflictAs(r.Conflict, e))
		return Render(e, r.Lang)
	}
	return answer(r.run())
}

// request is a host's request (wire.HostRequest) with its answers.
type request struct{ wire.HostRequest }

// errorValue is a *fault.Error on the wire, both languages kept.
type errorValue = wire.HostError

func faultOf(e errorValue) *fault.Error { return fault.New(fault.Code(e.Code), e.Details, e.En, e.Fr) }

func wireErr(err error) errorValue {
	e, ok := fault.As(err)
	if !ok {
		e = fault.Internalf("%v", err)
	}
	return errorValue{Code: string(e.Code), En: e.En, Fr: e.Fr, Details: e.Details}
}

func answer(v any) []byte {
	out, _ := json.Marshal(v)
	return out
}

func (r *request) run() any {
	switch r.Kind {
	case wire.KindCheckPlan:
		return r.checkPlan()
	case wire.KindWhere:
		return r.where()
	case wire.KindUndoPlan:
		return r.undoPlan()
	case wire.KindOpenJournal:
		return r.openJournal()
	case wire.KindConflictCopy:
		return r.conflictCopy()
	case wire.KindSweep:
		ids, remove := Sweep(r.Names)
		now, _ := time.Parse(time.RFC3339Nano, r.Now)
		young := r.Now != "" && Young(r.Names, r.Own, now, time.Duration(r.WaitMS)*time.Millisecond)
		return map[string]any{"ids": nonNil(ids), "remove": nonNil(remove), "young": young}
	case wire.KindNewJournal:
		now, err := time.Parse(time.RFC3339Nano, r.Now)
		if err != nil {
			return map[string]any{"error": wireErr(fault.Internalf("a new_journal request without a valid time"))}
		}
		j := NewJournal(r.Plan, now, r.Suffix)
		text, _ := json.Marshal(j)
		return map[string]any{"id": j.ID, "text": string(text)}
	case wire.KindCheckNeed:
		if err := CheckNeed(r.Need); err != nil {
			return map[string]any{"error": wireErr(err)}
		}
		return map[string]any{"ok": true}
	case wire.KindList:
		return map[string]any{"names": List(r.Names, r.Patterns)}
	case wire.KindFinished:
		return r.finished()
	case wire.KindReadAnswer:
		return readAnswer([]byte(r.Answer))
	case wire.KindNow:
		return map[string]any{"now": CanonicalNow(r.Now)}
	case wire.KindRefuse:
		if e := Refusal(r.Why, r.Path, r.Max, r.Tool, r.Rounds); e != nil {
			return map[string]any{"error": wireErr(e)}
		}
	}
	return map[string]any{"error": wireErr(fault.Internalf("unknown host request kind %q", r.Kind))}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// readAnswer is ReadAnswer for a host that prints Printed once the
// plan, sent only when there is one, has landed.
func readAnswer(raw []byte) any {
	out, _ := readAnswerChecked(ReadAnswer(raw))
	return out
}

// readAnswerChecked is readAnswer of an answer ReadAnswer read (or
// Round's fast path) and the request a host sends first about it:
// check_need of a need, check_plan without nodes of a plan (nil:
// neither, or an invalid answer). Round runs that request at once.
func readAnswerChecked(a Read, err error) (any, *request) {
	switch {
	case err != nil:
		return map[string]any{"invalid": err.Error()}, nil
	case a.Need != nil:
		check := &request{wire.HostRequest{Kind: wire.KindCheckNeed, Need: *a.Need}}
		if a.Search != nil {
			// A batch of the search index: the host stores it (its bytes
			// follow the answer's JSON) under this id.
			return map[string]any{"need": a.Need, "search": map[string]string{"id": a.Search.ID}}, check
		}
		return map[string]any{"need": a.Need}, check
	}
	out := map[string]any{"ok": *a.OK, "printed": string(a.Printed())}
	var check *request
	if *a.OK && len(a.Plan) > 0 {
		out["plan"] = a.Plan
		out["conflict"] = a.Conflict
		check = &request{wire.HostRequest{Kind: wire.KindCheckPlan, Plan: a.Plan}}
	}
	if a.Search != nil {
		// The index to store, and the answer without it: what a host
		// keeps as the call's last answer, as the Go host does.
		out["search"] = map[string]string{"id": a.Search.ID}
		a.Search = nil
		if b, err := wire.EncodeAnswer(a.Answer); err == nil {
			out["raw"] = string(b)
		}
	}
	return out, check
}

// errNeed stops a decision that needs a path the host has not sent.
var errNeed = errors.New("need")

// nodes is a Disk over the states a host sent; it records what is missing.
type nodes struct {
	m    map[string]string
	need []Look
}

func (d *nodes) Stat(x string) (Node, error) {
	s, ok := d.m[x]
	if !ok {
		d.need = append(d.need, Look{Path: x})
		return Node{}, errNeed
	}
	switch {
	case s == plan.Absent:
		return Node{Kind: Absent}, nil
	case s == StateFolder:
		return Node{Kind: Folder}, nil
	case s == "other":
		return Node{Kind: Other}, nil
	}
	return Node{Kind: File}, nil
}

func (d *nodes) Hash(x string) (string, error) {
	if s := d.m[x]; len(s) > 7 && s[:7] == "sha256:" {
		return s, nil
	}
	d.need = append(d.need, Look{Path: x, Hash: true})
	return "", errNeed
}

// checkPlan validates the plan and checks it against the nodes sent. On
// the first round (no nodes) it asks for every path the ops name and
// their folders, hashing the files whose bytes a precondition states.
func (r *request) checkPlan() any {
	if err := r.Plan.Validate(); err != nil {
		return map[string]any{"error": wireErr(fault.Internalf("the module returned an invalid plan: %v", err))}
	}
	if r.Nodes == nil {
		if looks := firstLooks(r.Plan); len(looks) > 0 {
			return map[string]any{"need": looks}
		}
	}
	d := &nodes{m: r.Nodes}
	err := Check(r.Plan, d)
	switch {
	case errors.Is(err, errNeed):
		return map[string]any{"need": d.need}
	case err != nil:
		return map[string]any{"error": wireErr(err)}
	}
	return map[string]any{"ok": true}
}

// firstLooks is what Check will most likely ask about p: each path an op
// names (hashed where its precondition is a hash) and the folders above.
func firstLooks(p plan.Plan) []Look {
	seen := map[string]int{}
	var out []Look
	add := func(x string, hash bool) {
		if i, ok := seen[x]; ok {
			out[i].Hash = out[i].Hash || hash
			return
		}
		seen[x] = len(out)
		out = append(out, Look{Path: x, Hash: hash})
	}
	for _, op := range p {
		for _, x := range []string{op.Path, op.From, op.To} {
			if x == "" {
				continue
			}
			for d := path.Dir(x); d != "."; d = path.Dir(d) {
				add(d, false)
			}
			add(x, x == op.Path && op.Expect != plan.Absent)
		}
	}
	return out
}

// missing returns looks when a path they name is not in r.Nodes.
func (r *request) missing(looks []Look) []Look {
	for _, l := range looks {
		if _, ok := r.Nodes[l.Path]; !ok {
			return looks
		}
	}
	return nil
}

func (r *request) where() any {
	if need := r.missing(Looks(r.Op)); need != nil {
		return map[string]any{"need": need}
	}
	at := Where(r.Op, r.State, func(x string) string { return r.Nodes[x] })
	return map[string]any{"at": [...]string{"neither", "before", "after"}[at]}
}

// undoPlan answers how to undo r.Plan, the ops of a live apply that
// landed before the op refused as r.Why at r.Path ("changed", "exists" or
// "disk_full"), asking for their Looks first (UndoPlan, with what r.Edited
// and r.Kept say stays already), and the refusal to end the call with.
func (r *request) undoPlan() any {
	if need := r.missing(UndoLooks(r.Plan)); need != nil {
		return map[string]any{"need": need}
	}
	failed := Refusal(r.Why, r.Path, 0, "", 0)
	if failed == nil {
		return map[string]any{"error": wireErr(fault.Internalf("an undo_plan request without a refusal (why %q)", r.Why))}
	}
	u := UndoPlan(r.Plan, func(x string) string { return r.Nodes[x] }, r.Edited, r.Kept)
	return map[string]any{"undos": u.Undos, "edited": nonNil(u.Edited), "kept": nonNil(u.Kept), "stop": wireErr(u.Stop(failed))}
}

// openJournal decodes the journal r.ID, its progress and its conflict
// record. A pending record (op from) refuses the call while its copy
// exists; once a person deleted it, their version wins for that op: it
// is recorded done and the record dropped, as is a stale one.
func (r *request) openJournal() any {
	fail := func(err error) any { return map[string]any{"error": wireErr(err)} }
	if r.ReadError != "" {
		return fail(BadJournal(JournalPath(r.ID), "cannot be read ("+r.ReadError+")"))
	}
	if r.Journal == nil {
		return map[string]any{"journal": nil} // finished by someone else since the listing
	}
	j, err := Decode(r.ID, []byte(*r.Journal))
	if err != nil {
		return fail(err)
	}
	var done int
	if r.Done != nil {
		done, _ = Progress([]byte(*r.Done))
	}
	if done > len(j.Plan) {
		return fail(BadJournal(JournalPath(r.ID), fmt.Sprintf("lists %d ops done out of %d", done, len(j.Plan))))
	}
	var data []byte
	if r.Record != nil {
		data = []byte(*r.Record)
	}
	rec, resume, err := ReadRecord(j, data, done)
	if err != nil {
		return fail(err)
	}
	from := done
	if resume == Pending {
		s, ok := r.Nodes[rec.Copy]
		switch {
		case !ok:
			return map[string]any{"need": []Look{{Path: rec.Copy}}}
		case s != plan.Absent:
			return fail(rec.Stop(j.ID, j.Plan[rec.Op]))
		}
		from++
	}
	return map[string]any{"journal": j, "from": from, "done": doneText(from), "drop_record": resume != NoRecord, "temp_dirs": TempDirs(j.Plan[done:])}
}

// conflictCopy names the conflict copy of op r.K of the journal r.ID:
// the first CopyName free in r.Nodes (asking for the next candidate
// until one is), its text, the record to write and the refusal to stop
// the call with.
func (r *request) conflictCopy() any {
	now, err := time.Parse(time.RFC3339Nano, r.Now)
	if err != nil || r.K < 0 || r.K >= len(r.Plan) {
		return map[string]any{"error": wireErr(fault.Internalf("a conflict_copy request without a valid time or op"))}
	}
	op := r.Plan[r.K]
	rec := Record{Op: r.K, Path: Target(op)}
	for n := 1; ; n++ {
		rec.Copy = CopyName(rec.Path, now, n)
		s, ok := r.Nodes[rec.Copy]
		if !ok {
			return map[string]any{"need": []Look{{Path: rec.Copy}}}
		}
		if s == plan.Absent {
			break
		}
	}
	return map[string]any{"copy": rec.Copy, "text": CopyText(r.ID, op), "record": string(rec.JSON()), "stop": wireErr(rec.Stop(r.ID, op))}
}

// doneText is the progress file that lists ops [0,done) done.
func doneText(done int) string {
	var b strings.Builder
	for i := range done {
		b.WriteString(strconv.Itoa(i) + "\n")
	}
	return b.String()
}

// CheckNeed refuses a need that names a path the module may never ask
// for: folders and tree roots may be "." (the vault's root); every other
// path must pass plan.CheckPath. The host checks this before reading
// anything.
func CheckNeed(need vault.Need) error {
	check := func(p string, folder bool) error {
		if folder && p == "." {
			return nil
		}
		if err := plan.CheckPath(p); err != nil {
			return BadNeed(p, err)
		}
		return nil
	}
	for _, p := range slices.Concat(need.Files, need.Heads) {
		if err := check(p, false); err != nil {
			return err
		}
	}
	for _, p := range need.Dirs {
		if err := check(p, true); err != nil {
			return err
		}
	}
	for _, t := range need.Trees {
		if err := check(t.Root, true); err != nil {
			return err
		}
	}
	for _, m := range need.Matches {
		if err := check(m.Dir, true); err != nil {
			return err
		}
	}
	return nil
}

// List is a folder's listing as a host sends it to the core: of names
// (a "/" after a folder's), those shown (not a dot-name, and a name
// plan.CheckPath accepts), selected by patterns when they are not nil
// (vault.Match.Selects, on the name without its "/"), in byte order.
func List(names, patterns []string) []string {
	m := vault.Match{Patterns: patterns}
	out := []string{}
	for _, n := range names {
		bare := strings.TrimSuffix(n, "/")
		if strings.HasPrefix(bare, ".") || plan.CheckPath(bare) != nil || (patterns != nil && !m.Selects(bare)) {
			continue
		}
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// Refusal is the host refusal named why, about p: "changed", "exists",
// "disk_full", "disk_full_halfway", "file_in_the_way", "folder_not_file",
// "file_not_folder", "not_ours_file", "not_ours_folder" (NotOurs: a
// place under .kessho that is a link or not what it must be),
// "too_much_text" (max bytes) or "too_many_rounds" (tool, rounds); nil
// for another why.
func Refusal(why, p string, max int64, tool string, rounds int) *fault.Error {
	switch why {
	case "changed":
		return Changed(p)
	case "exists":
		return Exists(p)
	case "disk_full":
		return DiskFull(p)
	case "disk_full_halfway":
		return DiskFullHalfway(p)
	case "file_in_the_way":
		return FileInTheWay(p)
	case "folder_not_file":
		return FolderNotFile(p)
	case "file_not_folder":
		return FileNotFolder(p)
	case "not_ours_file", "not_ours_folder":
		return NotOurs(p, why == "not_ours_folder")
	case "too_much_text":
		return TooMuchText(p, max)
	case "too_many_rounds":
		return TooManyRounds(tool, rounds)
	}
	return nil
}

// finished answers a host without a lock (the plugin) whose live apply
// of r.Plan stopped at r.Path and found its journal gone: another host
// finished the plan meanwhile. Every path the plan touches must hold its
// final state (FinalStates); the first that does not is a
// FinishedElsewhere CONFLICT.
func (r *request) finished() any {
	final := FinalStates(r.Plan)
	if r.Nodes == nil {
		looks := make([]Look, len(final))
		for i, f := range final {
			looks[i] = Look{Path: f.Path, Hash: f.State != plan.Absent && f.State != StatePresent}
		}
		return map[string]any{"need": looks}
	}
	for _, f := range final {
		s, ok := r.Nodes[f.Path]
		if !ok {
			return map[string]any{"need": []Look{{Path: f.Path, Hash: true}}}
		}
		if s != f.State && (f.State != StatePresent || s == plan.Absent) {
			return map[string]any{"error": wireErr(FinishedElsewhere(r.Path, f.Path))}
		}
	}
	return map[string]any{"ok": true}
}
