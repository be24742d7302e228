package genvault

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/engine"
	"github.com/kessho/kessho/host/vaultfs"
)

// TestDeterministic: the same seed gives the same tree, another seed
// another, and the vault holds exactly the notes asked for.
func TestDeterministic(t *testing.T) {
	hash := func(seed uint64) (string, Manifest) {
		dir := t.TempDir()
		m, err := Generate(dir, Config{Notes: 600, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		h, err := TreeHash(dir)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if strings.HasSuffix(p, ".md") {
				n++
			}
			return err
		})
		if n != 600 || m.Notes != 600 {
			t.Errorf("seed %d: %d notes on disk, manifest %d; want 600", seed, n, m.Notes)
		}
		return h, m
	}
	a, ma := hash(7)
	b, mb := hash(7)
	c, _ := hash(8)
	if a != b {
		t.Errorf("same seed, two trees: %s and %s", a, b)
	}
	if a == c {
		t.Errorf("seeds 7 and 8 gave the same tree %s", a)
	}
	if !slices.Equal(ma.Projects, mb.Projects) || ma.WeekSessions != mb.WeekSessions {
		t.Errorf("same seed, two manifests: %+v and %+v", ma, mb)
	}
}

// TestFixedProjectsSameShape: the two fixed projects hold the same bytes
// whatever the vault's size.
func TestFixedProjectsSameShape(t *testing.T) {
	small, big := t.TempDir(), t.TempDir()
	for dir, n := range map[string]int{small: 200, big: 900} {
		if _, err := Generate(dir, Config{Notes: n, Seed: 3}); err != nil {
			t.Fatal(err)
		}
	}
	for _, slug := range []string{"bench-target", "bench-shelf"} {
		rel := filepath.Join("10-episodes", "projects", slug)
		hs, err := TreeHash(filepath.Join(small, rel))
		if err != nil {
			t.Fatal(err)
		}
		hb, _ := TreeHash(filepath.Join(big, rel))
		if hs != hb {
			t.Errorf("%s differs between a 200- and a 900-note vault", slug)
		}
	}
}

// TestToolsReadTheLayout: on a generated 200-note vault, mem_list lists
// the projects, domains and archived projects the manifest names, and the
// worklog collect of the manifest's week finds its sessions.
func TestToolsReadTheLayout(t *testing.T) {
	dir := t.TempDir()
	m, err := Generate(dir, Config{Notes: 200, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Domains) < 2 || len(m.Archived) < 1 || m.WeekSessions == 0 {
		t.Fatalf("manifest too thin to test: %+v", m)
	}
	v, err := vaultfs.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	run := func(tool, args string) json.RawMessage {
		out, err := call.Run(context.Background(), v, engine.Native(), tool, json.RawMessage(args), call.Options{Now: Now, TZ: "UTC"})
		if err != nil || !out.OK {
			t.Fatalf("%s: %s %v", tool, out.Answer, err)
		}
		return out.Result
	}
	var list struct {
		Projects []struct {
			Slug     string
			Kind     string
			Archived bool
			Problem  string
		}
	}
	json.Unmarshal(run("mem_list", `{}`), &list)
	var projects, domains, archived []string
	for _, p := range list.Projects {
		if p.Problem != "" {
			t.Errorf("%s: %s", p.Slug, p.Problem)
		}
		switch {
		case p.Archived:
			archived = append(archived, p.Slug)
		case p.Kind == "domain":
			domains = append(domains, p.Slug)
		default:
			projects = append(projects, p.Slug)
		}
	}
	for _, s := range [][]string{projects, domains, archived} {
		slices.Sort(s)
	}
	if !slices.Equal(projects, m.Projects) || !slices.Equal(domains, m.Domains) || !slices.Equal(archived, m.Archived) {
		t.Errorf("mem_list: projects %v, domains %v, archived %v; manifest %v, %v, %v", projects, domains, archived, m.Projects, m.Domains, m.Archived)
	}
	var collect struct {
		Week     string
		Sessions int
	}
	json.Unmarshal(run("mem_worklog", `{"week_of":"`+m.Week+`"}`), &collect)
	if want := weekName(t, m.Week); collect.Week != want || collect.Sessions != m.WeekSessions {
		t.Errorf("worklog collect: week %q, %d sessions; want %q, %d", collect.Week, collect.Sessions, want, m.WeekSessions)
	}
}

func weekName(t *testing.T, day string) string {
	d, err := time.Parse("2006-01-02", day)
	if err != nil {
		t.Fatal(err)
	}
	y, w := d.ISOWeek()
	return fmt.Sprintf("%d-W%02d", y, w)
}

// TestCachedReuses: a cached vault is reused while its stamp matches, made
// again once marked dirty or when the seed changes.
func TestCachedReuses(t *testing.T) {
	root := t.TempDir()
	c := Config{Notes: 200, Seed: 5}
	v, err := Cached(root, c)
	if err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(v.Dir, "00-inbox", "mine.md")
	os.WriteFile(marker, []byte("x"), 0o644)
	again, err := Cached(root, c)
	if err != nil || again.Manifest.Target != v.Manifest.Target {
		t.Fatalf("%v %+v", err, again)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatal("the cached vault was made again though nothing changed")
	}
	if err := again.Dirty(); err != nil {
		t.Fatal(err)
	}
	if _, err := Cached(root, c); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); !os.IsNotExist(err) {
		t.Fatal("a vault marked dirty was reused")
	}
	os.WriteFile(marker, []byte("x"), 0o644)
	v, _ = Cached(root, c)
	if err := v.Dirty(); err != nil {
		t.Fatal(err)
	}
	if err := v.Clean(); err != nil {
		t.Fatal(err)
	}
	if _, err := Cached(root, c); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatal("a vault marked clean again was made again")
	}
}
