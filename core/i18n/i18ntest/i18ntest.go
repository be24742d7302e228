// Package i18ntest checks text files as core/i18n loads them, for the
// tests of the packages that load them: every text {En, Fr} has both
// languages, with the same printf verbs in the same order.
package i18ntest

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// Errors loads the texts load gives (an i18n.Load loader) and returns
// their faults: the decoder's, when the file does not decode (the loader
// panics), else Check's.
func Errors[T any](load func() *T) (errs []error) {
	defer func() {
		if r := recover(); r != nil {
			errs = []error{fmt.Errorf("%v", r)}
		}
	}()
	return Check(load())
}

// Check returns the faults of the texts in v (a struct, or a pointer to
// one, as Load gives): every pair {En, Fr} must have both languages and
// the same printf verbs in the same order. Each fault names the text by
// its path ("msg.setto.fr").
func Check(v any) []error {
	var errs []error
	walk(reflect.ValueOf(v), "", &errs)
	return errs
}

func walk(v reflect.Value, path string, errs *[]error) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			walk(v.Elem(), path, errs)
		}
	case reflect.Struct:
		if en, fr, ok := pair(v); ok {
			checkPair(path, en, fr, errs)
			return
		}
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if f.IsExported() {
				walk(v.Field(i), join(path, f), errs)
			}
		}
	case reflect.Map:
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
		for _, k := range keys {
			walk(v.MapIndex(k), path+"."+k.String(), errs)
		}
	case reflect.Array, reflect.Slice:
		for i := range v.Len() {
			walk(v.Index(i), fmt.Sprintf("%s[%d]", path, i), errs)
		}
	}
}

// pair reports whether v is a text in two languages: a struct of exactly
// the string fields En and Fr.
func pair(v reflect.Value) (en, fr string, ok bool) {
	t := v.Type()
	if t.NumField() != 2 || t.Field(0).Name != "En" || t.Field(1).Name != "Fr" ||
		t.Field(0).Type.Kind() != reflect.String || t.Field(1).Type.Kind() != reflect.String {
		return "", "", false
	}
	return v.Field(0).String(), v.Field(1).String(), true
}

// join is the path of field f under path, named as the file names it.
func join(path string, f reflect.StructField) string {
	tag, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	switch {
	case tag == "" && f.Anonymous && f.Tag.Get("yaml") != "":
		return path // inline
	case tag == "":
		tag = strings.ToLower(f.Name)
	}
	if path == "" {
		return tag
	}
	return path + "." + tag
}

func checkPair(path, en, fr string, errs *[]error) {
	if en == "" {
		*errs = append(*errs, fmt.Errorf("%s: no English text (en)", path))
	}
	if fr == "" {
		*errs = append(*errs, fmt.Errorf("%s: no French text (fr)", path))
	}
	if a, b := verbs(en), verbs(fr); en != "" && fr != "" && !slices.Equal(a, b) {
		*errs = append(*errs, fmt.Errorf("%s: the English text's printf verbs %q differ from the French text's %q", path, a, b))
	}
}

// verbs returns the printf verbs of format, in order ("%%" included), each
// with its flags, argument index, width and precision ("%-5d", "%[2]q").
func verbs(format string) []string {
	var out []string
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		j := i + 1
		for j < len(format) && !isVerb(format[j]) {
			j++
		}
		if j < len(format) {
			out = append(out, format[i:j+1])
		}
		i = j
	}
	return out
}

// isVerb reports whether c ends a printf directive: a letter or '%'.
func isVerb(c byte) bool {
	return c == '%' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
