// Package plan describes the writes a tool asks a host to make: an ordered
// list of operations, each with the precondition the core relied on.
//
// The core never writes. It returns a plan; the host checks every
// precondition against the disk under the vault's writer lock, and applies
// the whole plan or none of it (see DESIGN.md, "Hosts apply plans").
//
// A plan in JSON:
//
//	[{"op":"write","path":"10-episodes/projects/a/context.md","expect":"sha256:…","text":"…"},
//	 {"op":"move","from":"10-episodes/projects/a","to":"10-episodes/archived/a","expect":"absent"}]
package plan

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Kinds of operation.
const (
	Write  = "write"  // create or replace the file at Path with Text
	Delete = "delete" // remove the file at Path
	Move   = "move"   // rename From (a file or a folder) to To
	Check  = "check"  // write nothing: Path must still be as Expect says
)

// Absent is the precondition "no file or folder exists at this path".
const Absent = "absent"

// Op is one operation of a plan.
//
// Expect is the precondition: "sha256:<hex>" (the file holds exactly those
// bytes) or Absent. A write with an empty Expect is refused by Validate: the
// core always states what it relied on.
type Op struct {
	Op     string  `json:"op"`
	Path   string  `json:"path,omitempty"`
	From   string  `json:"from,omitempty"`
	To     string  `json:"to,omitempty"`
	Expect string  `json:"expect,omitempty"`
	Text   *string `json:"text,omitempty"`
}

// Plan is an ordered list of operations. Order carries meaning: an archive
// is written before the source it trims.
type Plan []Op

// CheckOp returns a check that path still holds what expect says.
func CheckOp(path, expect string) Op { return Op{Op: Check, Path: path, Expect: expect} }

// WriteOp returns a write of text at path, expecting expect.
func WriteOp(path, expect, text string) Op {
	return Op{Op: Write, Path: path, Expect: expect, Text: &text}
}

// Hash returns the precondition string for content: "sha256:<hex>".
func Hash(content []byte) string {
	sum := sha256.Sum256(content)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// HashString is Hash for a string.
func HashString(content string) string { return Hash([]byte(content)) }

// Validate checks the shape of every operation and every path, so that a
// host can refuse a malformed plan before touching the disk.
func (p Plan) Validate() error {
	for i, op := range p {
		if err := op.validate(); err != nil {
			return fmt.Errorf("plan op %d (%s): %w", i, op.Op, err)
		}
	}
	return nil
}

func (op Op) validate() error {
	switch op.Op {
	case Write:
		if op.Text == nil {
			return fmt.Errorf("write without text")
		}
		if op.Expect != Absent && !validHash(op.Expect) {
			return fmt.Errorf("expect %q is neither %q nor sha256:<hex>", op.Expect, Absent)
		}
		return CheckPath(op.Path)
	case Delete:
		if !validHash(op.Expect) {
			return fmt.Errorf("delete must expect sha256:<hex>, not %q", op.Expect)
		}
		return CheckPath(op.Path)
	case Move:
		if op.Expect != Absent {
			return fmt.Errorf("move must expect %q at its target", Absent)
		}
		if IsUndo(op.From) || IsUndo(op.To) {
			return fmt.Errorf("move names %s: undo records are written and deleted, never moved", UndoDir)
		}
		if err := CheckPath(op.From); err != nil {
			return err
		}
		if err := CheckPath(op.To); err != nil {
			return err
		}
		if op.From == op.To || strings.HasPrefix(op.To+"/", op.From+"/") {
			return fmt.Errorf("move %q into itself", op.From)
		}
		return nil
	case Check:
		if op.Expect != Absent && !validHash(op.Expect) {
			return fmt.Errorf("expect %q is neither %q nor sha256:<hex>", op.Expect, Absent)
		}
		return CheckPath(op.Path)
	}
	return fmt.Errorf("unknown op %q", op.Op)
}

func validHash(s string) bool {
	h, ok := strings.CutPrefix(s, "sha256:")
	if !ok || len(h) != 64 {
		return false
	}
	_, err := hex.DecodeString(h)
	return err == nil && strings.ToLower(h) == h
}

// UndoDir is the one place under a dot-folder that plans and needs may
// name: Kessho's undo records. mem_archive keeps there, for each full
// archive, the texts it replaced (so that mem_rollback_archive can put
// them back), and mem_rollback_archive records its last rollback of each
// project (so that a retried rollback never removes a second archive).
// Nothing in it is a note: tree walks and the search index leave
// dot-folders out, and Obsidian does not show them. A host must refuse to
// read or write it through a symbolic link (docs/HOSTS.md, section 2).
const UndoDir = ".kessho/undo"

// IsUndo reports whether p is a path under UndoDir.
func IsUndo(p string) bool { return strings.HasPrefix(p, UndoDir+"/") }

// GitKeep is the empty file the memory-kit's mem_init_project writes in
// a new project's archives/ so that Git keeps the folder
// (mem_init_project writes it in a kit vault). It is no note: tree walks,
// listings and the search index leave it out as every dot-name.
const GitKeep = ".gitkeep"

// CheckPath reports whether p is a vault-relative path Kessho may touch:
// "/"-separated, clean, relative, valid UTF-8, no empty, "." or ".."
// segment, no segment starting with "." (dot-folders such as .obsidian,
// .git and .kessho are never read or written through a plan), no
// backslash, colon or NUL. The exceptions are UndoDir: a path under it
// whose rest obeys the same rules; and GitKeep, as a path's last segment
// (a file, never a folder to enter).
func CheckPath(p string) error {
	if p == "" {
		return fmt.Errorf("empty path")
	}
	if !utf8.ValidString(p) {
		return fmt.Errorf("path %q is not valid UTF-8", p)
	}
	if strings.ContainsAny(p, "\\\x00:") {
		return fmt.Errorf("path %q holds a backslash, colon or NUL", p)
	}
	if strings.HasPrefix(p, "/") {
		return fmt.Errorf("path %q is absolute", p)
	}
	rest := strings.TrimPrefix(p, UndoDir+"/")
	if dir, ok := strings.CutSuffix(rest, "/"+GitKeep); ok && rest == p {
		rest = dir
	}
	for seg := range strings.SplitSeq(rest, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return fmt.Errorf("path %q is not clean", p)
		}
		if strings.HasPrefix(seg, ".") {
			return fmt.Errorf("path %q enters a dot-folder", p)
		}
	}
	return nil
}
