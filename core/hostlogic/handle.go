package hostlogic

import (
	"encoding/json"
	"errors"
	"path"
	"slices"
	"strconv"
	"strings"

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
//	refuse         {"why","path","max","tool","rounds"} → {"error":e}
//	read_answer    {"answer":text}                    → {"need":…,"search"} | {"ok","printed","plan","conflict","search","raw"} | {"invalid":why}
//	now            {"now":text}                       → {"now":text} (CanonicalNow)
//	render         {"error":e|"internal":text,"lang","conflict"} → the refusal as the host prints it
//
// A call's apply and recovery, and the answering of a round's need (its
// check, reads and listings), are not decisions asked one by one but
// steps (Step). An error e is {"code","en","fr","details"}: the
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
// Round's fast path) and its need (nil: none, or an invalid answer),
// whose first step Round answers at once; a plan's check is its apply's
// first step.
func readAnswerChecked(a Read, err error) (any, *wire.Need) {
	switch {
	case err != nil:
		return map[string]any{"invalid": err.Error()}, nil
	case a.Need != nil:
		check := a.Need
		if a.Search != nil {
			// A batch of the search index: the host stores it (its bytes
			// follow the answer's JSON) under this id.
			return map[string]any{"need": a.Need, "search": map[string]string{"id": a.Search.ID}}, check
		}
		return map[string]any{"need": a.Need}, check
	}
	out := map[string]any{"ok": *a.OK, "printed": string(a.Printed())}
	if *a.OK && len(a.Plan) > 0 {
		out["plan"] = a.Plan
		out["conflict"] = a.Conflict
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
	return out, nil
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
