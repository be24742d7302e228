package catalog

// Schema returns the tool's input as a JSON Schema object (draft 2020-12
// subset), with descriptions in lang. MCP hosts serve it as inputSchema,
// which a client shows the model: it says what the model needs to fill a
// call in and nothing more. An object lists its properties and the
// required ones (no "required" when none is), but not
// additionalProperties: the core refuses an unknown parameter by its name
// (INVALID_ARGUMENT) whatever the client checks.
func (t *Tool) Schema(lang string) map[string]any {
	return objectSchema(t.Params, lang)
}

func objectSchema(params []Param, lang string) map[string]any {
	props := map[string]any{}
	var required []string
	for i := range params {
		p := &params[i]
		props[p.Name] = p.schema(lang)
		if p.Required {
			required = append(required, p.Name)
		}
	}
	s := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

func (p *Param) schema(lang string) map[string]any {
	s := map[string]any{"type": p.Type}
	if p.Type == Object && len(p.Props) > 0 {
		s = objectSchema(p.Props, lang)
	}
	if d := p.Description.In(lang); d != "" {
		s["description"] = d
	}
	if p.Default != nil {
		s["default"] = p.Default
	}
	if len(p.Enum) > 0 {
		s["enum"] = p.Enum
	}
	set := func(k string, v *int) {
		if v != nil {
			s[k] = *v
		}
	}
	set("minLength", p.MinLength)
	set("maxLength", p.MaxLength)
	set("minItems", p.MinItems)
	set("maxItems", p.MaxItems)
	if p.Minimum != nil {
		s["minimum"] = *p.Minimum
	}
	if p.Maximum != nil {
		s["maximum"] = *p.Maximum
	}
	if p.Items != nil {
		s["items"] = p.Items.schema(lang)
	}
	return s
}
