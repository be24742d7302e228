package hosts

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// core is the core's source tree, from this package's folder.
const core = "../.."

// text is one message of the core: where it is, its language ("" for a Go literal: either), and its text.
type text struct {
	where, lang, text string
}

// yamlTexts returns the en and fr texts of the messages of every YAML file
// of the core (testdata left out): a file's first document (core/i18n: a
// tool's catalogue texts, for agents, come after its messages and are never
// shown in Obsidian, whose forms have their own words).
func yamlTexts(t *testing.T) []text {
	var out []text
	err := filepath.WalkDir(core, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".yaml") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var n yaml.Node
		if err := yaml.NewDecoder(strings.NewReader(string(data))).Decode(&n); err != nil {
			return fmt.Errorf("%s: %v", p, err)
		}
		walkPairs(&n, func(line int, lang, s string) {
			out = append(out, text{p + ":" + strconv.Itoa(line), lang, s})
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// walkPairs calls f on every scalar under an "en" or "fr" key of n.
func walkPairs(n *yaml.Node, f func(line int, lang, s string)) {
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if (k.Value == "en" || k.Value == "fr") && v.Kind == yaml.ScalarNode {
				f(v.Line, k.Value, v.Value)
				continue
			}
			walkPairs(v, f)
		}
		return
	}
	for _, c := range n.Content {
		walkPairs(c, f)
	}
}

// goTexts returns the string literals of the core's Go code (tests and testdata left out) that hold a sentence naming a tool.
func goTexts(t *testing.T) []text {
	var out []text
	fset := token.NewFileSet()
	err := filepath.WalkDir(core, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err == nil && strings.Contains(s, "mem_") && strings.Contains(strings.TrimSpace(s), " ") {
				out = append(out, text{fset.Position(lit.Pos()).String(), "", s})
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// agentWords finds what names a tool or a parameter: mem_list, context_md, revive=true, mode=full.
var agentWords = regexp.MustCompile(`\bmem_[a-z_]+|\b[a-z]+(?:_[a-z]+)+\b|\b[a-z_]+=[a-z0-9"]+`)

// TestObsidianNamesNoTool: every message of the core, in Obsidian's words, names no tool and no parameter.
func TestObsidianNamesNoTool(t *testing.T) {
	w, err := Load("obsidian")
	if err != nil {
		t.Fatal(err)
	}
	texts := append(yamlTexts(t), goTexts(t)...)
	if len(texts) < 100 {
		t.Fatalf("found %d texts of the core: the scan is broken", len(texts))
	}
	used := map[string]bool{}
	for _, x := range texts {
		shown := x.text
		for _, lang := range []string{"en", "fr"} {
			if x.lang == "" || x.lang == lang {
				shown = w.Apply(lang, shown)
			}
		}
		if k := keptIn(w, x.text); k != "" {
			used[k] = true
			continue
		}
		if bad := agentWords.FindString(stripCode(shown)); bad != "" {
			t.Errorf("%s (%s): %q names %q in Obsidian: add a rewrite to obsidian.json\n\t%s", x.where, x.lang, shown, bad, x.text)
		}
	}
	for _, k := range w.Kept {
		if !used[k] {
			t.Errorf("kept %q matches no text of the core: remove it", k)
		}
	}
}

// TestRewritesAreUsed: each rewrite changes some text of the core (a rewrite left behind by a changed message is found).
func TestRewritesAreUsed(t *testing.T) {
	w, err := Load("obsidian")
	if err != nil {
		t.Fatal(err)
	}
	texts := append(yamlTexts(t), goTexts(t)...)
	for lang, rs := range w.Rewrites {
		for _, r := range rs {
			found := false
			for _, x := range texts {
				if (x.lang == "" || x.lang == lang) && strings.Contains(x.text, r.From) {
					found = true
					break
				}
			}
			if !found {
				t.Errorf("%s rewrite %q matches no text of the core", lang, r.From)
			}
		}
	}
}

func keptIn(w *Words, s string) string {
	for _, k := range w.Kept {
		if strings.Contains(s, k) {
			return k
		}
	}
	return ""
}

// codeSpan finds `code` and a file path: what a message quotes is not a name it gives the user.
var codeSpan = regexp.MustCompile("`[^`]*`|[\\w.-]*/[\\w./-]+|\\[\\[[^\\]]*\\]\\]")

func stripCode(s string) string { return codeSpan.ReplaceAllString(s, "") }
