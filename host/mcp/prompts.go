package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The prompts, in the server's language (texts in server.yaml), each
// taking the slug of an active project or domain, which completion/complete
// offers (complete):
//
//   - start-session runs mem_recall on the slug and frames its brief: what
//     the agent should say and do with it;
//   - archive-session guides the agent through mem_archive's parameters
//     (subject, body, aliases in the user's words, derive or
//     no_derived_because, context_md only whole) and mem_set_summary.
//
// A prompt whose slug the core refuses (INVALID_SLUG, UNKNOWN_SLUG…) is a
// protocol error carrying the refusal's code and message.
func (c *caller) addPrompts(srv *sdk.Server) {
	texts := serverText()
	for _, p := range []struct {
		name string
		text promptText
		body func(ctx context.Context, slug string) (string, error)
	}{
		{"start-session", texts.Start, c.recall},
		{"archive-session", texts.Archive, c.checkSlug},
	} {
		lang := c.opts.Lang
		srv.AddPrompt(&sdk.Prompt{
			Name: p.name, Title: p.text.Title.In(lang), Description: p.text.Description.In(lang),
			Arguments: []*sdk.PromptArgument{{Name: "slug", Description: p.text.Slug.In(lang), Required: true}},
		}, func(ctx context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
			slug := req.Params.Arguments["slug"]
			body, err := p.body(ctx, slug)
			if err != nil {
				return nil, err
			}
			text := fmt.Sprintf(p.text.Text.In(lang), slug)
			if body != "" {
				text += "\n\n" + body
			}
			return &sdk.GetPromptResult{
				Description: p.text.Description.In(lang),
				Messages:    []*sdk.PromptMessage{{Role: "user", Content: &sdk.TextContent{Text: text}}},
			}, nil
		})
	}
}

// recall returns mem_recall's brief of slug (its summary_md).
func (c *caller) recall(ctx context.Context, slug string) (string, error) {
	var r struct {
		SummaryMD string `json:"summary_md"`
	}
	err := c.result(ctx, "mem_recall", map[string]any{"slug": slug}, &r)
	return r.SummaryMD, err
}

// checkSlug refuses a slug that is no project or domain, as
// mem_read_context does, so that the guide is not given for nothing.
func (c *caller) checkSlug(ctx context.Context, slug string) (string, error) {
	var r struct{}
	return "", c.result(ctx, "mem_read_context", map[string]any{"slug": slug}, &r)
}

// result calls the tool name with args and decodes its result into out;
// a refusal is an error giving its code and message.
func (c *caller) result(ctx context.Context, name string, args map[string]any, out any) error {
	raw, err := json.Marshal(args)
	if err != nil {
		return err
	}
	o := c.run(ctx, nil, name, raw, func(string) {}, nil)
	if !o.OK {
		if o.Error != nil {
			return fmt.Errorf("%s: %s", o.Error.Code, o.Error.Message)
		}
		return errors.New(string(o.Answer))
	}
	return json.Unmarshal(o.Result, out)
}

// maxCompletions is the most values a completion gives (MCP's bound).
const maxCompletions = 100

// complete offers the slugs of the active projects and domains (mem_list)
// that begin with what the user typed, case aside, sorted, for a prompt's
// slug argument, and for a resource template's the slugs of its kind
// (projects for kessho://project/…); nothing for any other argument.
func (c *caller) complete(ctx context.Context, req *sdk.CompleteRequest) (*sdk.CompleteResult, error) {
	res := &sdk.CompleteResult{Completion: sdk.CompletionResultDetails{Values: []string{}}}
	ref := req.Params.Ref
	if ref == nil || req.Params.Argument.Name != "slug" {
		return res, nil
	}
	kind := "" // any
	switch ref.Type {
	case "ref/prompt":
	case "ref/resource":
		if kind = templateKind(ref.URI); kind == "" {
			return res, nil
		}
	default:
		return res, nil
	}
	var list struct {
		Projects []struct {
			Slug     string `json:"slug"`
			Kind     string `json:"kind"`
			Archived bool   `json:"archived"`
		} `json:"projects"`
	}
	if err := c.result(ctx, "mem_list", map[string]any{"include_archived": false}, &list); err != nil {
		return nil, err
	}
	typed := strings.ToLower(req.Params.Argument.Value)
	var slugs []string
	for _, p := range list.Projects {
		if !p.Archived && (kind == "" || p.Kind == kind) && strings.HasPrefix(strings.ToLower(p.Slug), typed) {
			slugs = append(slugs, p.Slug)
		}
	}
	slices.Sort(slugs)
	slugs = slices.Compact(slugs)
	res.Completion.Total = len(slugs)
	if len(slugs) > maxCompletions {
		slugs, res.Completion.HasMore = slugs[:maxCompletions], true
	}
	res.Completion.Values = append(res.Completion.Values, slugs...)
	return res, nil
}
