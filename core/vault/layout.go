package vault

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/fold"
)

// Places of the vault (SPEC section 1).
const (
	Episodes = "10-episodes"
	Projects = "10-episodes/projects"
	Domains  = "10-episodes/domains"
	Archived = "10-episodes/archived"
)

// Kinds of project folder.
const (
	KindProject  = "project"
	KindDomain   = "domain"
	KindArchived = "archived"
)

// CheckSlug refuses anything that is not one path segment of letters,
// digits, ".", "_" and "-", not starting with ".", 1–100 bytes.
func CheckSlug(param, slug string) error {
	why := ""
	switch {
	case slug == "":
		why = "is empty"
	case len(slug) > 100:
		why = fmt.Sprintf("is %d bytes long, more than 100", len(slug))
	case strings.HasPrefix(slug, "."):
		why = "starts with a dot"
	default:
		for i, r := range slug {
			if r == utf8.RuneError || !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
				why = fmt.Sprintf("holds %q at byte %d", r, i)
				break
			}
		}
	}
	if why == "" {
		return nil
	}
	frWhy := map[bool]string{true: "est vide", false: "n'est pas un segment valide"}[slug == ""]
	return fault.New(fault.InvalidSlug, map[string]any{"parameter": param, "slug": slug},
		fmt.Sprintf("%s %q %s: a slug is one folder name of letters, digits, '.', '_' and '-', not starting with '.', 1 to 100 bytes", param, slug, why),
		fmt.Sprintf("%s %q %s : un slug est un nom de dossier fait de lettres, chiffres, « . », « _ » et « - », sans « . » initial, de 1 à 100 octets", param, slug, frWhy))
}

// Dir returns the folder of a slug of the given kind.
func Dir(kind, slug string) string {
	switch kind {
	case KindDomain:
		return Domains + "/" + slug
	case KindArchived:
		return Archived + "/" + slug
	}
	return Projects + "/" + slug
}

// Project is a resolved project or domain folder.
type Project struct {
	Slug string
	Kind string // KindProject, KindDomain or KindArchived
	Dir  string
}

// Type is "project" or "domain": an archived project is a project (see
// Archived).
func (p Project) Type() string {
	if p.Kind == KindDomain {
		return KindDomain
	}
	return KindProject
}

// Archived reports whether the project lies in 10-episodes/archived/.
func (p Project) Archived() bool { return p.Kind == KindArchived }

// Context is the path of the project's context.md.
func (p Project) Context() string { return p.Dir + "/context.md" }

// History is the path of the project's history.md.
func (p Project) History() string { return p.Dir + "/history.md" }

var kinds = []string{KindProject, KindDomain, KindArchived}

// Folders lists the project and domain folders of the given kinds (all
// three when none are given), kind by kind in that order, each sorted by
// name; a folder whose name is no valid slug is left out. The parent
// listings are asked for in one round, together with the extra files the
// caller will read next.
func Folders(v *View, extra []string, only ...string) ([]Project, error) {
	if len(only) == 0 {
		only = kinds
	}
	var parents []string
	for _, k := range only {
		parents = append(parents, strings.TrimSuffix(Dir(k, ""), "/"))
	}
	if err := v.Ask(Need{Files: extra, Dirs: parents}); err != nil {
		return nil, err
	}
	var out []Project
	for i, k := range only {
		entries, err := v.List(parents[i])
		if err != nil && err != ErrNotExist {
			return nil, err
		}
		for _, e := range entries {
			if name, ok := strings.CutSuffix(e, "/"); ok && CheckSlug("slug", name) == nil {
				out = append(out, Project{Slug: name, Kind: k, Dir: Dir(k, name)})
			}
		}
	}
	return out, nil
}

// Resolve finds the folder of slug among projects, domains and archived
// projects (Locate), in constant time: the vault's other folders are
// listed only when slug names none, for the close matches of
// UNKNOWN_SLUG.
//
// A slug that names no folder but differs from one only by case, accents,
// spaces, "-" or "_" (sameSlug) is UNKNOWN_SLUG with that folder's
// exact slug in details "use" and in the message, even when the typed
// slug is no valid slug ("web shop"): the caller learns what to send, and
// nothing is ever matched silently.
//
// On a vault with no folder at all, UNKNOWN_SLUG's message names
// mem_init_project instead (NoProjectYet).
//
// Errors: INVALID_SLUG, UNKNOWN_SLUG (with up to five close matches),
// SLUG_CONFLICT when the slug names folders in more than one place.
func Resolve(v *View, slug string) (Project, error) {
	found, err := Locate(v, slug)
	invalid := err != nil && fault.CodeOf(err) == fault.InvalidSlug && slugKey(slug) != ""
	if err != nil && !invalid {
		return Project{}, err
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		folders, ferr := Folders(v, nil)
		if ferr != nil {
			return Project{}, ferr
		}
		var all []string
		for _, f := range folders {
			all = append(all, f.Slug)
		}
		if same := sameSlug(slug, all); same != "" {
			return Project{}, fault.New(fault.UnknownSlug, map[string]any{"slug": slug, "use": same, "close_matches": []string{same}},
				fmt.Sprintf("no project or domain is named %q; its slug is written %q: call again with slug %q", slug, same, same),
				fmt.Sprintf("aucun projet ni domaine ne s'appelle %q ; son slug s'écrit %q : rappelez avec le slug %q", slug, same, same))
		}
		if invalid {
			return Project{}, err
		}
		near := Closest(slug, all, 5)
		en := fmt.Sprintf("no project or domain is named %q", slug)
		fr := fmt.Sprintf("aucun projet ni domaine ne s'appelle %q", slug)
		switch {
		case len(near) > 0:
			en += "; did you mean " + strings.Join(near, ", ") + "?"
			fr += " ; vouliez-vous dire " + strings.Join(near, ", ") + " ?"
		case len(all) == 0:
			en += "; " + NoProjectYet.En
			fr += " ; " + NoProjectYet.Fr
		default:
			en += "; mem_list shows the existing ones"
			fr += " ; mem_list montre ceux qui existent"
		}
		return Project{}, fault.New(fault.UnknownSlug, map[string]any{"slug": slug, "close_matches": nonNil(near)}, en, fr)
	}
	var places []string
	for _, p := range found {
		places = append(places, p.Dir)
	}
	return Project{}, fault.New(fault.SlugConflict, map[string]any{"slug": slug, "places": places},
		fmt.Sprintf("slug %q exists in several places (%s); keep only one of these folders", slug, strings.Join(places, ", ")),
		fmt.Sprintf("le slug %q existe à plusieurs endroits (%s) ; n'en gardez qu'un", slug, strings.Join(places, ", ")))
}

// NoProjectYet ends an UNKNOWN_SLUG (and mem_list's summary) on a vault
// that holds no project, domain nor archived project at all: the caller
// learns the one call that starts one, where close matches would be
// none and mem_list would list nothing.
var NoProjectYet = fault.Msg{
	En: "the vault has no project yet: create the first one with mem_init_project (slug, kind, summary)",
	Fr: "le coffre n'a encore aucun projet : créez le premier avec mem_init_project (slug, kind, summary)",
}

// Locate returns the folders named slug: a project, a domain or an
// archived project folder, in that order (more than one is a conflict
// for Resolve). It probes the three places slug can be, never listing
// the others, so its cost does not grow with the vault: one round asks,
// for each place, the parent's entries named slug (a Match, which the Go
// host answers without listing the parent) and the context.md there, so
// the caller can read the context next without another round. An entry
// counts as a folder as in Folders: a folder, or a symbolic link to one,
// named slug; a file of that name does not.
func Locate(v *View, slug string) ([]Project, error) {
	if err := CheckSlug("slug", slug); err != nil {
		return nil, err
	}
	var need Need
	for _, k := range kinds {
		need.Files = append(need.Files, Dir(k, slug)+"/context.md")
		// A slug holds no character path.Match treats specially, so the
		// pattern selects the entry named slug alone.
		need.Matches = append(need.Matches, Match{Dir: strings.TrimSuffix(Dir(k, ""), "/"), Patterns: []string{slug}})
	}
	if err := v.Ask(need); err != nil {
		return nil, err
	}
	var found []Project
	for i, k := range kinds {
		entries, err := v.Match(need.Matches[i])
		if err != nil && err != ErrNotExist {
			return nil, err
		}
		if slices.Contains(entries, slug+"/") {
			found = append(found, Project{Slug: slug, Kind: k, Dir: Dir(k, slug)})
		}
	}
	return found, nil
}

// sameSlug returns the slug of slugs that slug differs from only by case,
// accents and word separators (the same slugKey: "Webshop", "web shop",
// "Wébshop" and "web-shop" for webshop), or "" when none or several do. Resolve answers it in UNKNOWN_SLUG's details ("use") and
// message rather than taking it silently: a slug is a folder name, and a
// call must name the folder it edits exactly.
func sameSlug(slug string, slugs []string) string {
	key, found := slugKey(slug), ""
	for _, s := range slugs {
		if s != slug && slugKey(s) == key {
			if found != "" && found != s {
				return ""
			}
			found = s
		}
	}
	return found
}

// slugKey is s folded (lowercase, accents dropped) without its white
// space, "-" and "_": any other character, such as a "!" or a "/", keeps
// it apart from every slug.
func slugKey(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || r == '-' || r == '_' {
			return -1
		}
		return r
	}, fold.Fold(s))
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
