package catalog

import (
	"encoding"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Args is a call's arguments as Validate checked them: each parameter's
// value as the one decode of the arguments made it (numbers json.Number,
// objects map[string]any, arrays []any), or its default; nulls dropped.
// An Args is never changed once made, so that a core may keep it for a
// call's later rounds and read it from several goroutines.
type Args struct {
	Values map[string]any
	// raw is the arguments as sent; given the parameters whose value is
	// in it (not a default), in the catalogue's order.
	raw   json.RawMessage
	given []string
	// changed are the given parameters whose value is not the JSON sent
	// under their name: sent under a synonym (Param.SynonymOf), or a
	// value synonym read as its enum value (Param.Synonyms). Raw encodes
	// their value.
	changed []string
	// lazy is each given value's JSON, decoded from raw when first asked
	// (Raw): only a parameter read as json.RawMessage needs it.
	lazy *rawValues
}

// rawValues is the given values' JSON (Raw), decoded on first use and
// each compacted once, so that a call's later rounds do not redo it.
type rawValues struct {
	mu      sync.Mutex
	decoded bool
	err     error
	sent    map[string]json.RawMessage // each value as sent
	out     map[string]json.RawMessage // each value compacted (Raw)
}

// Raw returns the JSON of the given parameter name, as encoding/json
// writes a json.RawMessage (compacted, HTML's characters escaped), keys
// in the order they were sent; ok false when name was not given.
func (a Args) Raw(name string) (_ json.RawMessage, ok bool, _ error) {
	if !a.isGiven(name) {
		return nil, false, nil
	}
	if slices.Contains(a.changed, name) {
		b, err := json.Marshal(a.Values[name])
		return b, true, err
	}
	l := a.lazy
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.decoded {
		l.decoded, l.err = true, json.Unmarshal(a.raw, &l.sent)
		l.out = map[string]json.RawMessage{}
	}
	if l.err != nil {
		return nil, true, l.err
	}
	b, done := l.out[name]
	if !done {
		var err error
		if b, err = json.Marshal(l.sent[name]); err != nil {
			return nil, true, err
		}
		l.out[name] = b
	}
	return append(json.RawMessage(nil), b...), true, nil
}

func (a Args) isGiven(name string) bool {
	for _, g := range a.given {
		if g == name {
			return true
		}
	}
	return false
}

// JSON returns the arguments as one JSON object, keys sorted: each
// given value's JSON as sent (Raw), and the defaults.
func (a Args) JSON() (json.RawMessage, error) {
	out := make(map[string]any, len(a.Values))
	for name, v := range a.Values {
		raw, given, err := a.Raw(name)
		if err != nil {
			return nil, err
		}
		if given {
			v = raw
		}
		out[name] = v
	}
	return json.Marshal(out)
}

// Decode stores the arguments in dst, a pointer to a struct whose fields
// name the parameters in their json tags, as json.Unmarshal(a.JSON(), dst)
// would: from the values already decoded, without another JSON pass,
// but for a json.RawMessage field (Raw). A type this does not know for
// sure (a map, an interface, a field whose tag differs in case, an
// Unmarshaler…) goes through encoding/json, so that the result is
// always Unmarshal's.
func (a Args) Decode(dst any) error {
	v := reflect.ValueOf(dst)
	if v.Kind() == reflect.Pointer && v.Elem().Kind() == reflect.Struct && a.assignTop(v.Elem()) {
		return nil
	}
	b, err := a.JSON()
	if err != nil {
		return err
	}
	v.Elem().SetZero()
	return json.Unmarshal(b, dst)
}

var (
	rawMessageType = reflect.TypeFor[json.RawMessage]()
	unmarshalers   = []reflect.Type{reflect.TypeFor[json.Unmarshaler](), reflect.TypeFor[encoding.TextUnmarshaler]()}
)

// assignTop stores each value in its field of the struct v; false when
// one needs encoding/json.
func (a Args) assignTop(v reflect.Value) bool {
	fields, ok := jsonFields(v.Type())
	if !ok {
		return false
	}
	for name, x := range a.Values {
		f, ok := fields[name]
		if !ok {
			return false
		}
		fv := v.FieldByIndex(f)
		if fv.Type() != rawMessageType {
			if !assign(fv, x) {
				return false
			}
			continue
		}
		raw, given, err := a.Raw(name)
		if !given || err != nil {
			return false
		}
		fv.SetBytes(raw)
	}
	return true
}

// jsonFields maps the json names of t's fields (its embedded structs'
// included) to their index; false for a struct whose fields encoding/json
// would match otherwise (an untagged field, a name given twice, an
// embedded pointer, an Unmarshaler).
func jsonFields(t reflect.Type) (map[string][]int, bool) {
	if special(t) {
		return nil, false
	}
	fields := map[string][]int{}
	for _, f := range reflect.VisibleFields(t) {
		if f.Anonymous {
			if f.Type.Kind() != reflect.Struct || special(f.Type) {
				return nil, false
			}
			continue
		}
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			return nil, false
		}
		if _, dup := fields[name]; dup {
			return nil, false
		}
		fields[name] = f.Index
	}
	return fields, true
}

// special reports whether t or *t decodes itself.
func special(t reflect.Type) bool {
	for _, u := range unmarshalers {
		if t.Implements(u) || reflect.PointerTo(t).Implements(u) {
			return true
		}
	}
	return false
}

// assign stores x, a value decoded into any (or a parameter's default),
// in v as encoding/json would store its JSON; false when it cannot say.
func assign(v reflect.Value, x any) bool {
	if special(v.Type()) {
		return false
	}
	switch v.Kind() {
	case reflect.String:
		s, ok := x.(string)
		v.SetString(s)
		return ok
	case reflect.Bool:
		b, ok := x.(bool)
		v.SetBool(b)
		return ok
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return assignInt(v, x)
	case reflect.Float32, reflect.Float64:
		return assignFloat(v, x)
	case reflect.Pointer:
		if x == nil {
			return false
		}
		p := reflect.New(v.Type().Elem())
		v.Set(p)
		return assign(p.Elem(), x)
	case reflect.Slice:
		return assignSlice(v, x)
	case reflect.Struct:
		return assignStruct(v, x)
	}
	return false
}

func assignInt(v reflect.Value, x any) bool {
	var n int64
	switch x := x.(type) {
	case json.Number:
		var err error
		if n, err = strconv.ParseInt(string(x), 10, 64); err != nil {
			return false
		}
	case int:
		n = int64(x)
	default:
		return false
	}
	if v.OverflowInt(n) {
		return false
	}
	v.SetInt(n)
	return true
}

func assignFloat(v reflect.Value, x any) bool {
	var f float64
	switch x := x.(type) {
	case json.Number:
		var err error
		if f, err = strconv.ParseFloat(string(x), v.Type().Bits()); err != nil {
			return false
		}
	case int:
		f = float64(x)
	case float64:
		f = x
	default:
		return false
	}
	if v.OverflowFloat(f) {
		return false
	}
	v.SetFloat(f)
	return true
}

func assignSlice(v reflect.Value, x any) bool {
	items, ok := x.([]any)
	if !ok || v.Type().Elem().Kind() == reflect.Uint8 {
		return false
	}
	s := reflect.MakeSlice(v.Type(), len(items), len(items))
	for i, it := range items {
		if !assign(s.Index(i), it) {
			return false
		}
	}
	v.Set(s)
	return true
}

func assignStruct(v reflect.Value, x any) bool {
	m, ok := x.(map[string]any)
	if !ok {
		return false
	}
	fields, ok := jsonFields(v.Type())
	if !ok {
		return false
	}
	for k, fx := range m {
		f, ok := fields[k]
		if !ok || fx == nil || !assign(v.FieldByIndex(f), fx) {
			return false
		}
	}
	return true
}
