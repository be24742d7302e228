package hostlogic

// The decisions both hosts make alike outside a step: the looks a plan's
// check needs first, the needs a host may answer (CheckNeed), how a
// listing is shown (List).

import (
	"errors"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/vault"
)

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
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
