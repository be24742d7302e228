package recallbench

import (
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
	"gopkg.in/yaml.v3"
)

// Tokenize is the one tokenizer of the three baselines: NFD, combining
// marks dropped (accents folded: NFC and NFD "été" both give "ete"),
// lowercase, runs of letters and digits. No stemming and no stopwords:
// the baselines are what a plain tool does.
func Tokenize(s string) []string {
	var out []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
		}
	}
	for _, r := range norm.NFD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r):
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(unicode.ToLower(r))
		default:
			flush()
		}
	}
	flush()
	return out
}

// Doc is one note: its vault-relative path and its text.
type Doc struct {
	Path string
	Text string
}

// field names of BM25F, with their weights: the designations weigh more
// than the body. Aliases are left out on purpose: "BM25F without
// aliases" measures what Kessho's aliases add.
var fieldWeights = []struct {
	name   string
	weight float64
}{{"title", 3}, {"subject", 3}, {"display", 2}, {"summary", 2}, {"body", 1}}

// Corpus holds the tokenized notes, in walk order (sorted paths).
type Corpus struct {
	docs   []Doc
	whole  [][]string            // every token of the file, frontmatter included
	fields [][][]string          // per doc, per fieldWeights entry
	df     map[string]int        // whole-file document frequency
	dfF    map[string]int        // document frequency over the BM25F fields
	avg    float64               // mean whole-file length
	avgF   []float64             // mean field lengths
	sets   []map[string]struct{} // whole-file token sets, for Grep
}

// NewCorpus tokenizes docs once for the three baselines.
func NewCorpus(docs []Doc) *Corpus {
	docs = slices.Clone(docs)
	slices.SortFunc(docs, func(a, b Doc) int { return strings.Compare(a.Path, b.Path) })
	c := &Corpus{docs: docs, df: map[string]int{}, dfF: map[string]int{}, avgF: make([]float64, len(fieldWeights))}
	for _, d := range docs {
		toks := Tokenize(d.Text)
		c.whole = append(c.whole, toks)
		set := map[string]struct{}{}
		for _, t := range toks {
			set[t] = struct{}{}
		}
		c.sets = append(c.sets, set)
		for t := range set {
			c.df[t]++
		}
		c.avg += float64(len(toks))
		fs := docFields(d)
		c.fields = append(c.fields, fs)
		setF := map[string]struct{}{}
		for i, f := range fs {
			c.avgF[i] += float64(len(f))
			for _, t := range f {
				setF[t] = struct{}{}
			}
		}
		for t := range setF {
			c.dfF[t]++
		}
	}
	if n := float64(len(docs)); n > 0 {
		c.avg /= n
		for i := range c.avgF {
			c.avgF[i] /= n
		}
	}
	return c
}

// docFields splits a note into the BM25F fields: title (the file name
// without .md), subject, display and summary from the frontmatter, and
// the body after it. A note whose frontmatter does not parse is all body.
func docFields(d Doc) [][]string {
	vals := map[string]string{"title": strings.TrimSuffix(filepath.Base(d.Path), ".md"), "body": d.Text}
	if rest, ok := strings.CutPrefix(d.Text, "---\n"); ok {
		if fm, body, ok := strings.Cut(rest, "\n---\n"); ok {
			var m map[string]any
			if yaml.Unmarshal([]byte(fm), &m) == nil {
				vals["body"] = body
				for _, k := range []string{"subject", "display", "summary"} {
					if s, ok := m[k].(string); ok {
						vals[k] = s
					}
				}
			}
		}
	}
	out := make([][]string, len(fieldWeights))
	for i, f := range fieldWeights {
		out[i] = Tokenize(vals[f.name])
	}
	return out
}

// ReadVault reads every .md file of a vault folder, dot-folders left out.
func ReadVault(dir string) ([]Doc, error) {
	var docs []Doc
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != dir && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".md") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		docs = append(docs, Doc{Path: filepath.ToSlash(rel), Text: string(data)})
		return nil
	})
	return docs, err
}

// Hit is one ranked note.
type Hit struct {
	Path  string
	Score float64
}

// Limit is how many hits every ranker returns: the 10 of MRR@10, the
// limit Kessho is asked for.
const Limit = 10

// terms are a query's distinct tokens, in order.
func terms(q string) []string {
	var out []string
	for _, t := range Tokenize(q) {
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// top keeps the docs with a positive score, best first; equal scores in
// walk order (path order); at most Limit.
func top(c *Corpus, score func(i int) float64) []Hit {
	var hits []Hit
	for i, d := range c.docs {
		if s := score(i); s > 0 {
			hits = append(hits, Hit{d.Path, s})
		}
	}
	slices.SortStableFunc(hits, func(a, b Hit) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return 0
	})
	if len(hits) > Limit {
		hits = hits[:Limit]
	}
	return hits
}

// Grep is the honesty floor: a case- and accent-insensitive OR match of
// the query's words over whole files (what `rg -i -w -e w1 -e w2` does,
// with accents folded). Files are ordered by how many distinct query
// words they hold, then in walk order; not by plain walk order, which
// would be a weaker floor.
type Grep struct{ C *Corpus }

func (g Grep) Rank(q string) []Hit {
	ts := terms(q)
	return top(g.C, func(i int) float64 {
		n := 0
		for _, t := range ts {
			if _, ok := g.C.sets[i][t]; ok {
				n++
			}
		}
		return float64(n)
	})
}

// BM25 parameters, the usual ones, fixed before any run.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

func idf(n, df int) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}

// BM25 ranks whole files, frontmatter included, as one field.
type BM25 struct{ C *Corpus }

func (r BM25) Rank(q string) []Hit {
	ts := terms(q)
	n := len(r.C.docs)
	return top(r.C, func(i int) float64 {
		dl := float64(len(r.C.whole[i]))
		s := 0.0
		for _, t := range ts {
			tf := float64(count(r.C.whole[i], t))
			if tf == 0 {
				continue
			}
			s += idf(n, r.C.df[t]) * tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*dl/r.C.avg))
		}
		return s
	})
}

// BM25F ranks the fields title, subject, display, summary and body with
// the weights of fieldWeights (each field's length normalised on its own,
// b = 0.75), without aliases.
type BM25F struct{ C *Corpus }

func (r BM25F) Rank(q string) []Hit {
	ts := terms(q)
	n := len(r.C.docs)
	return top(r.C, func(i int) float64 {
		s := 0.0
		for _, t := range ts {
			tf := 0.0
			for f, fw := range fieldWeights {
				raw := float64(count(r.C.fields[i][f], t))
				if raw == 0 || r.C.avgF[f] == 0 {
					continue
				}
				tf += fw.weight * raw / (1 - bm25B + bm25B*float64(len(r.C.fields[i][f]))/r.C.avgF[f])
			}
			if tf > 0 {
				s += idf(n, r.C.dfF[t]) * tf * (bm25K1 + 1) / (tf + bm25K1)
			}
		}
		return s
	})
}

func count(toks []string, t string) int {
	n := 0
	for _, x := range toks {
		if x == t {
			n++
		}
	}
	return n
}

// CopyNotes copies every file of src but its dot-folders (Kessho's
// journal and lock) to dst, which must not exist.
func CopyNotes(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && rel != "." {
			return filepath.SkipDir
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
}
