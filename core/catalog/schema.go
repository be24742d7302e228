package catalog

// Schema returns the tool's input as a JSON Schema object (draft 2020-12
// subset), with descriptions in lang. MCP hosts serve it as inputSchema.
func (t *Tool) Schema(lang string) map[string]any {
	return objectSchema(t.Params, lang)
}

func objectSchema(params []Param, lang string) map[string]any {
	props := map[string]any{}
	required := []string{}
	for i := range params {
		p := &params[i]
		props[p.Name] = p.schema(lang)
		if p.Required {
			required = append(required, p.Name)
		}
	}
	return map[string]any{
		"type":                 "object",
		"properties":           props,
		"required":             required,
		"additionalProperties": false,
	}
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
