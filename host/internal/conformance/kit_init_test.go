package conformance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kessho/kessho/core/frontmatter"
)

// TestKitInitAssertions replays, on the kit fixture vault and on both
// engines, the memory-kit's own assertions on what its mem_init_project
// writes (its tests of a new project, a domain with a display, one with a
// repo_path, and a history's skeleton), one subtest each: archives/.gitkeep,
// phase initial, the "Active context" body, a given display suffixed
// " — context", workspace_member beside repo_path, history.md's
// frontmatter slug, its "Historique des sessions" title and its "no
// sessions yet" line; then the spacing a one-entry kit history keeps: the
// first two archives' lines separated by a blank line.
func TestKitInitAssertions(t *testing.T) {
	for name, eng := range engines(t) {
		t.Run(name, func(t *testing.T) {
			dir := fixtureVault(t, "kit-conventions")
			s := &session{t: t, v: openVault(t, dir), eng: eng, now: time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)}
			s.call("mem_init_project", `{"slug":"neoproject","kind":"project","scope":"work"}`)
			s.call("mem_init_project", `{"slug":"transverse-tech","kind":"domain","display":"Transverse Tech"}`)
			s.call("mem_init_project", `{"slug":"withrepo","repo_path":"/path/to/withrepo"}`)
			read := func(p string) (map[string]any, string) {
				t.Helper()
				data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
				if err != nil {
					t.Fatal(err)
				}
				doc, err := frontmatter.Parse(string(data))
				if err != nil {
					t.Fatalf("%s: %v", p, err)
				}
				fm := map[string]any{}
				for _, k := range doc.Keys() {
					fm[k], _ = doc.Lookup(k)
				}
				return fm, doc.Body()
			}
			const neo = "10-episodes/projects/neoproject/"
			ctx, body := read(neo + "context.md")
			domain, _ := read("10-episodes/domains/transverse-tech/context.md")
			repo, _ := read("10-episodes/projects/withrepo/context.md")
			hist, histBody := read(neo + "history.md")
			for _, c := range []struct {
				name string
				ok   bool
			}{
				{"archives/.gitkeep", fileIs(dir, neo+"archives/.gitkeep", "")},
				{"the universal keys", ctx["slug"] == "neoproject" && ctx["scope"] == "work" && ctx["zone"] == "episodes" && ctx["kind"] == "project"},
				{"phase initial", ctx["phase"] == "initial"},
				{"the Active context body", strings.Contains(body, "Active context")},
				{"display suffixed", domain["kind"] == "domain" && domain["display"] == "Transverse Tech — context"},
				{"repo_path and workspace_member", repo["repo_path"] == "/path/to/withrepo" && repo["workspace_member"] == ""},
				{"history.md's slug", hist["slug"] == "neoproject"},
				{"history.md's title", strings.Contains(histBody, "Historique des sessions")},
				{"history.md's no sessions yet", strings.Contains(histBody, "no sessions yet")},
			} {
				if !c.ok {
					t.Errorf("%s: the kit's assertion fails:\n%v\n%s\n%v\n%v\n%v\n%s", c.name, ctx, body, domain, repo, hist, histBody)
				}
			}
			s.call("mem_archive", `{"slug":"neoproject","mode":"full","archive_subject":"un","archive_body_md":"Un.","no_derived_because":"test"}`)
			s.call("mem_archive", `{"slug":"neoproject","mode":"full","archive_subject":"deux","archive_body_md":"Deux.","no_derived_because":"test"}`)
			if _, h := read(neo + "history.md"); !strings.Contains(h, ".md)\n\n- [") || strings.Contains(h, "no sessions yet") {
				t.Errorf("the new kit history's entries are not separated by a blank line, as the kit's:\n%s", h)
			}
		})
	}
}

// fileIs reports whether the vault file p holds exactly want.
func fileIs(dir, p, want string) bool {
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
	return err == nil && string(data) == want
}
