package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/kessho/kessho/core/fault"
)

// Validate checks raw arguments against the tool's parameters and returns
// them normalised: nulls dropped (null means omitted), defaults filled in.
// Unknown parameters, missing required ones, wrong types and values out of
// bounds are refused with INVALID_ARGUMENT naming the parameter; so are a
// string that is not valid UTF-8 (checked on the raw bytes: decoding would
// replace the bad bytes with U+FFFD unseen) and a control character in a
// one-line string (Param.OneLine).
//
// The arguments are decoded once; the checks and the Args read that
// decode (Args.Decode hands it to the tool's type).
func (t *Tool) Validate(raw json.RawMessage) (Args, error) {
	args, trailing, err := decodeArgs(raw)
	if err != nil {
		return Args{}, err
	}
	for name := range args {
		if _, ok := t.accepted(name); !ok {
			var names []string
			for _, p := range t.Params {
				names = append(names, p.Name)
			}
			return Args{}, fault.New(fault.InvalidArgument, map[string]any{"parameter": name, "known": names},
				fmt.Sprintf("unknown parameter %q for %s; it takes: %s", name, t.Name, strings.Join(names, ", ")),
				fmt.Sprintf("paramètre inconnu %q pour %s ; il accepte : %s", name, t.Name, strings.Join(names, ", ")))
		}
	}
	if trailing && len(args) > 0 {
		// Bytes after the object: the error encoding/json gives them.
		var m map[string]json.RawMessage
		err := json.Unmarshal(raw, &m)
		return Args{}, fault.Argument("args", "is not valid JSON: "+err.Error(), "n'est pas du JSON valide : "+err.Error())
	}
	sentAs, err := t.synonyms(args)
	if err != nil {
		return Args{}, err
	}
	out := Args{Values: map[string]any{}, raw: raw, lazy: &rawValues{}}
	for _, ps := range [][]Param{t.Params, t.Unlisted} {
		for _, p := range ps {
			if p.SynonymOf != "" {
				continue // its value is its parameter's (synonyms)
			}
			v, ok := args[p.Name]
			if !ok || v == nil {
				if p.Required {
					return Args{}, fault.Argument(p.Name, "is required", "est obligatoire")
				}
				if p.Default != nil {
					out.Values[p.Name] = p.Default
				}
				continue
			}
			sent := p.Name
			if s, ok := sentAs[p.Name]; ok {
				sent = s
				out.changed = append(out.changed, p.Name)
			}
			if s, isString := v.(string); isString && p.Synonyms[s] != "" {
				v = p.Synonyms[s]
				out.changed = append(out.changed, p.Name)
			}
			if err := p.check(sent, v); err != nil {
				return Args{}, err
			}
			out.Values[p.Name] = v
			out.given = append(out.given, p.Name)
		}
	}
	return out, nil
}

// synonyms moves the value of each unlisted synonym given in args
// (Param.SynonymOf) to the parameter it stands for, and returns, for each
// parameter whose value came so, the name it was sent under. Both names
// given (not null) with different values is INVALID_ARGUMENT naming the
// two; the same value twice is that value.
func (t *Tool) synonyms(args map[string]any) (map[string]string, error) {
	var sentAs map[string]string
	for _, u := range t.Unlisted {
		v, ok := args[u.Name]
		if u.SynonymOf == "" || !ok {
			continue
		}
		delete(args, u.Name)
		if v == nil {
			continue
		}
		if w, both := args[u.SynonymOf]; both && w != nil {
			if !reflect.DeepEqual(v, w) {
				return nil, fault.New(fault.InvalidArgument, map[string]any{"parameter": u.Name, "synonym_of": u.SynonymOf},
					fmt.Sprintf("%s and %s are one parameter under two names, given two different values: send only %s", u.Name, u.SynonymOf, u.SynonymOf),
					fmt.Sprintf("%s et %s sont un même paramètre sous deux noms, donné avec deux valeurs différentes : n'envoyez que %s", u.Name, u.SynonymOf, u.SynonymOf))
			}
			continue
		}
		args[u.SynonymOf] = v
		if sentAs == nil {
			sentAs = map[string]string{}
		}
		sentAs[u.SynonymOf] = u.Name
	}
	return sentAs, nil
}

// decodeArgs decodes raw arguments once (numbers as json.Number): an
// empty map for none or null; trailing reports bytes after the object
// (a request's decoder never leaves any: see Validate).
func decodeArgs(raw json.RawMessage) (_ map[string]any, trailing bool, _ error) {
	if len(bytes.TrimSpace(raw)) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return map[string]any{}, false, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, false, fault.Argument("args", "is not valid JSON: "+err.Error(), "n'est pas du JSON valide : "+err.Error())
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, false, fault.Argument("args", "must be a JSON object of parameters", "doit être un objet JSON de paramètres")
	}
	if err := notUTF8(raw); err != nil {
		return nil, false, err
	}
	return m, len(bytes.TrimSpace(raw[dec.InputOffset():])) > 0, nil
}

func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

var frType = map[string]string{
	String: "une chaîne", Integer: "un entier", Number: "un nombre",
	Boolean: "un booléen", Array: "un tableau", Object: "un objet",
}

func article(typ string) string {
	if typ == Integer || typ == Array || typ == Object {
		return "an " + typ
	}
	return "a " + typ
}

// check validates v against p; name is the path of v for messages
// ("derive[2].fact").
func (p *Param) check(name string, v any) error {
	switch p.Type {
	case String:
		s, ok := v.(string)
		if !ok {
			return p.wrong(name, v)
		}
		return p.checkString(name, s)
	case Integer, Number:
		num, ok := v.(json.Number)
		if !ok {
			return p.wrong(name, v)
		}
		return p.checkNumber(name, num)
	case Boolean:
		if _, ok := v.(bool); !ok {
			return p.wrong(name, v)
		}
	case Array:
		items, ok := v.([]any)
		if !ok {
			return p.wrong(name, v)
		}
		return p.checkArray(name, items)
	case Object:
		m, ok := v.(map[string]any)
		if !ok {
			return p.wrong(name, v)
		}
		return p.checkObject(name, m)
	default:
		return fault.Internalf("parameter %s has unknown type %q", name, p.Type)
	}
	return nil
}

// wrong is the error of a value v, at name, of another type than p's.
func (p *Param) wrong(name string, v any) error {
	return fault.Argument(name, fmt.Sprintf("must be %s, not %s", article(p.Type), typeName(v)),
		fmt.Sprintf("doit être %s, pas %s", frType[p.Type], typeName(v)))
}

// checkString checks a string against p's length, line and enum rules.
func (p *Param) checkString(name, s string) error {
	n := utf8.RuneCountInString(s)
	if p.MinLength != nil && n < *p.MinLength {
		return fault.Argument(name, fmt.Sprintf("must be at least %d characters long", *p.MinLength),
			fmt.Sprintf("doit compter au moins %d caractères", *p.MinLength))
	}
	if p.MaxLength != nil && n > *p.MaxLength {
		return fault.Argument(name, fmt.Sprintf("is %d characters long, at most %d allowed", n, *p.MaxLength),
			fmt.Sprintf("compte %d caractères, %d au plus", n, *p.MaxLength))
	}
	if p.OneLine {
		if err := checkOneLine(name, s); err != nil {
			return err
		}
	}
	if len(p.Enum) > 0 && !contains(p.Enum, s) {
		return fault.Argument(name, fmt.Sprintf("must be one of %s, not %q", strings.Join(p.Enum, ", "), s),
			fmt.Sprintf("doit valoir %s, pas %q", strings.Join(p.Enum, ", "), s))
	}
	return nil
}

// checkNumber checks a number against p's type (an integer) and bounds.
func (p *Param) checkNumber(name string, num json.Number) error {
	f, err := num.Float64()
	if err != nil {
		return p.wrong(name, num)
	}
	if p.Type == Integer {
		if _, err := num.Int64(); err != nil {
			return p.wrong(name, num)
		}
	}
	if p.Minimum != nil && f < *p.Minimum || p.Maximum != nil && f > *p.Maximum {
		return fault.Argument(name, fmt.Sprintf("is %s, outside %s", num, bounds(p.Minimum, p.Maximum)),
			fmt.Sprintf("vaut %s, hors de %s", num, bounds(p.Minimum, p.Maximum)))
	}
	return nil
}

// checkArray checks an array's length against p's bounds, then each item
// against p.Items.
func (p *Param) checkArray(name string, items []any) error {
	if p.MinItems != nil && len(items) < *p.MinItems || p.MaxItems != nil && len(items) > *p.MaxItems {
		return fault.Argument(name, fmt.Sprintf("has %d items, outside %s", len(items), bounds(fp(p.MinItems), fp(p.MaxItems))),
			fmt.Sprintf("a %d éléments, hors de %s", len(items), bounds(fp(p.MinItems), fp(p.MaxItems))))
	}
	if p.Items != nil {
		for i, it := range items {
			if err := p.Items.check(fmt.Sprintf("%s[%d]", name, i), it); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkObject checks an object against p.Props (when p has any): no
// unknown field, every required one, each against its own.
func (p *Param) checkObject(name string, m map[string]any) error {
	if len(p.Props) == 0 {
		return nil
	}
	for k := range m {
		found := false
		for _, q := range p.Props {
			found = found || q.Name == k
		}
		if !found {
			return fault.Argument(name+"."+k, "is not a known field", "n'est pas un champ connu")
		}
	}
	for i := range p.Props {
		q := &p.Props[i]
		fv, ok := m[q.Name]
		if !ok || fv == nil {
			if q.Required {
				return fault.Argument(name+"."+q.Name, "is required", "est obligatoire")
			}
			continue
		}
		if err := q.check(name+"."+q.Name, fv); err != nil {
			return err
		}
	}
	return nil
}

func fp(n *int) *float64 {
	if n == nil {
		return nil
	}
	f := float64(*n)
	return &f
}

func bounds(lo, hi *float64) string {
	switch {
	case lo != nil && hi != nil:
		return fmt.Sprintf("[%g, %g]", *lo, *hi)
	case lo != nil:
		return fmt.Sprintf("[%g, ∞)", *lo)
	case hi != nil:
		return fmt.Sprintf("(-∞, %g]", *hi)
	}
	return "any"
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
