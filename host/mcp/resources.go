package mcp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kessho/kessho/core/vault"
)

// The resources: each project's and domain's context.md, history.md and
// archives, under three URI templates a kind:
//
//	kessho://project/{slug}/context         context.md (mem_read_context)
//	kessho://project/{slug}/history         history.md (mem_read_history)
//	kessho://project/{slug}/archive/{name}  an archive (mem_read_archive)
//
// and the same with "domain" for domains. An archived project is a
// project (its folder is 10-episodes/archived/). {name} is what
// mem_read_archive's archive parameter takes: the archive's file name
// (as resources/list gives it), "latest", or an index from the newest.
//
// A read asks the core which file a URI names, with the same tool and
// arguments an agent would call (so a bad or unknown slug, an unknown
// archive, a domain named as a project are refused as those tools refuse
// them, as "resource not found" carrying the tool's code and message),
// then returns that file's text as it is on disk, as text/markdown.
const (
	resourceScheme = "kessho://"
	markdown       = "text/markdown"
)

// resourceKinds are the URI's first segment: the vault.Project.Type of
// the folders it names.
var resourceKinds = []string{vault.KindProject, vault.KindDomain}

// resourceURI is a parsed kessho:// URI.
type resourceURI struct {
	kind, slug, what, name string // what: "context", "history" or "archive"
}

// String is the URI, each segment escaped as a path segment.
func (r resourceURI) String() string {
	s := resourceScheme + r.kind + "/" + url.PathEscape(r.slug) + "/" + r.what
	if r.what == "archive" {
		s += "/" + url.PathEscape(r.name)
	}
	return s
}

// parseResourceURI reads a kessho:// URI; ok is false for anything else.
func parseResourceURI(uri string) (r resourceURI, ok bool) {
	rest, found := strings.CutPrefix(uri, resourceScheme)
	if !found {
		return r, false
	}
	parts := strings.Split(rest, "/")
	for i, p := range parts {
		u, err := url.PathUnescape(p)
		if err != nil || u == "" {
			return r, false
		}
		parts[i] = u
	}
	if len(parts) < 3 || !slices.Contains(resourceKinds, parts[0]) {
		return r, false
	}
	r = resourceURI{kind: parts[0], slug: parts[1], what: parts[2]}
	switch {
	case len(parts) == 3 && (r.what == "context" || r.what == "history"):
		return r, true
	case len(parts) == 4 && r.what == "archive":
		r.name = parts[3]
		return r, true
	}
	return r, false
}

// call is the tool and arguments that name r's file.
func (r resourceURI) call() (string, map[string]any) {
	switch r.what {
	case "context":
		return "mem_read_context", map[string]any{"slug": r.slug}
	case "history":
		return "mem_read_history", map[string]any{"slug": r.slug, "limit": 1}
	}
	return "mem_read_archive", map[string]any{"slug": r.slug, "archive": r.name}
}

// addResources adds the resource templates, their read handler, and the
// paged resources/list (listResources) in place of the SDK's list of
// registered resources, and returns the templates.
func (c *caller) addResources(srv *sdk.Server) []*sdk.ResourceTemplate {
	templates := c.templates()
	for _, t := range templates {
		srv.AddResourceTemplate(t, c.readResource)
	}
	srv.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if r, ok := req.(*sdk.ListResourcesRequest); ok && method == "resources/list" {
				cursor := ""
				if r.Params != nil {
					cursor = r.Params.Cursor
				}
				return c.listResources(ctx, cursor)
			}
			return next(ctx, method, req)
		}
	})
	return templates
}

// templates are the six URI templates, in the server's language.
func (c *caller) templates() []*sdk.ResourceTemplate {
	texts, lang := serverText().Resources, c.opts.Lang
	var out []*sdk.ResourceTemplate
	for _, kind := range resourceKinds {
		for _, t := range []struct {
			what, tail string
			text       resourceText
		}{
			{"context", "/context", texts.Context},
			{"history", "/history", texts.History},
			{"archive", "/archive/{name}", texts.Archive},
		} {
			out = append(out, &sdk.ResourceTemplate{
				Name:        kind + "-" + t.what,
				Title:       fmt.Sprintf(t.text.Title.In(lang), c.kindName(kind)),
				Description: fmt.Sprintf(t.text.Description.In(lang), c.kindName(kind)),
				URITemplate: resourceScheme + kind + "/{slug}" + t.tail,
				MIMEType:    markdown,
			})
		}
	}
	return out
}

// readResource answers resources/read: the core names the file (see the
// package's resources above), the vault gives its text.
func (c *caller) readResource(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	uri := req.Params.URI
	r, ok := parseResourceURI(uri)
	if !ok {
		return nil, sdk.ResourceNotFoundError(uri)
	}
	tool, args := r.call()
	raw, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	o := c.run(ctx, req.Session, tool, raw, func(string) {}, nil)
	if !o.OK {
		if o.Error == nil {
			return nil, fmt.Errorf("%s: %s", uri, o.Answer)
		}
		return nil, notFound(uri, o.Error.Code+": "+o.Error.Message)
	}
	var res struct {
		Kind string `json:"kind"`
		Path string `json:"path"`
	}
	if err := json.Unmarshal(o.Result, &res); err != nil {
		return nil, err
	}
	if res.Kind != r.kind {
		other := r
		other.kind = res.Kind
		return nil, notFound(uri, fmt.Sprintf(serverText().Resources.WrongKind.In(c.opts.Lang), r.slug, c.kindName(res.Kind), other))
	}
	var snap vault.Snapshot
	if err := c.vault.AnswerContext(ctx, vault.Need{Files: []string{res.Path}}, &snap, maxResource); err != nil {
		return nil, err
	}
	f, ok := snap.Files[res.Path]
	if !ok || f.Text == nil {
		return nil, notFound(uri, fmt.Sprintf(serverText().Resources.NoFile.In(c.opts.Lang), res.Path))
	}
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: markdown, Text: *f.Text}}}, nil
}

// vaultPrivate says that the results of the resource methods, which
// carry a vault's notes or their names, may be cached by this user's
// client alone (cacheScope "private"; absent, the protocol's default is
// "public": any intermediary may serve them to anyone). The catalogue,
// the prompts and the discovery answer hold nothing of a vault and stay
// public.
func vaultPrivate(_ context.Context, req sdk.Request, c *sdk.Cacheable) {
	switch req.(type) {
	case *sdk.ReadResourceRequest, *sdk.ListResourcesRequest, *sdk.ListResourceTemplatesRequest:
		c.CacheScope = "private"
	}
}

// kindName is kind ("project" or "domain") in the server's language.
func (c *caller) kindName(kind string) string {
	return serverText().Kinds[kind].In(c.opts.Lang)
}

// maxResource bounds the text of a resource read, as call.Options.MaxBytes
// bounds a call's.
const maxResource = 256 << 20

// notFound is the protocol's "resource not found" for uri, with why.
func notFound(uri, why string) error {
	data, _ := json.Marshal(map[string]string{"uri": uri})
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: why, Data: data}
}

// resourcePage is the most resources one resources/list page gives.
const resourcePage = 500

// listResources answers resources/list a page at a time, from folder
// listings alone (no file is read, whatever the vault's size): the
// domains, then the projects (active and archived together), each sorted
// by slug, and for each its context, its history, then its archives, the
// newest name first. A page lists the folders of the slugs it covers and
// no other: the cursor names the slug and the position in its resources
// where the next page starts.
func (c *caller) listResources(ctx context.Context, cursor string) (*sdk.ListResourcesResult, error) {
	from, err := parseCursor(cursor)
	if err != nil {
		return nil, err
	}
	slugs, err := c.slugs(ctx)
	if err != nil {
		return nil, err
	}
	res := &sdk.ListResourcesResult{Resources: []*sdk.Resource{}, Cacheable: sdk.Cacheable{CacheScope: "private"}} // answered by a method handler of its own, which vaultPrivate does not see
	i, _ := slices.BinarySearchFunc(slugs, from.folder, compareFolders)
	for ; i < len(slugs); i++ {
		f := slugs[i]
		list, err := c.folderResources(ctx, f)
		if err != nil {
			return nil, err
		}
		skip := 0
		if compareFolders(f, from.folder) == 0 {
			skip = min(from.n, len(list))
		}
		for n := skip; n < len(list); n++ {
			if len(res.Resources) == resourcePage {
				res.NextCursor = makeCursor(f, n)
				return res, nil
			}
			res.Resources = append(res.Resources, list[n])
		}
	}
	return res, nil
}

// folder is a project or domain folder: its kind ("project" or
// "domain"), slug, and folder in the vault.
type folder struct{ kind, slug, dir string }

func compareFolders(a, b folder) int {
	if c := strings.Compare(a.kind, b.kind); c != 0 {
		return c
	}
	return strings.Compare(a.slug, b.slug)
}

// slugs lists the project and domain folders, sorted by kind then slug.
func (c *caller) slugs(ctx context.Context) ([]folder, error) {
	kinds := []string{vault.KindProject, vault.KindArchived, vault.KindDomain}
	var need vault.Need
	for _, k := range kinds {
		need.Dirs = append(need.Dirs, strings.TrimSuffix(vault.Dir(k, ""), "/"))
	}
	var snap vault.Snapshot
	if err := c.vault.AnswerContext(ctx, need, &snap, 0); err != nil {
		return nil, err
	}
	var out []folder
	for i, p := range need.Dirs {
		kind := vault.Project{Kind: kinds[i]}.Type()
		for _, e := range snap.Dirs[p] {
			slug, isDir := strings.CutSuffix(e, "/")
			if isDir && vault.CheckSlug("slug", slug) == nil {
				out = append(out, folder{kind, slug, p + "/" + slug})
			}
		}
	}
	slices.SortStableFunc(out, compareFolders)
	// A slug both active and archived is a SLUG_CONFLICT to the core:
	// listed once (its active folder's files), its reads say so.
	return slices.CompactFunc(out, func(a, b folder) bool { return compareFolders(a, b) == 0 }), nil
}

// folderResources lists f's resources: context.md and history.md when
// present, then the .md files of archives/, the newest name first.
func (c *caller) folderResources(ctx context.Context, f folder) ([]*sdk.Resource, error) {
	var snap vault.Snapshot
	if err := c.vault.AnswerContext(ctx, vault.Need{Dirs: []string{f.dir, f.dir + "/archives"}}, &snap, 0); err != nil {
		return nil, err
	}
	texts, lang := serverText().Resources, c.opts.Lang
	var out []*sdk.Resource
	add := func(r resourceURI, file, title string) {
		out = append(out, &sdk.Resource{URI: r.String(), Name: f.slug + "/" + file, Title: title, MIMEType: markdown})
	}
	entries := snap.Dirs[f.dir]
	for _, w := range []struct {
		what string
		text resourceText
	}{{"context", texts.Context}, {"history", texts.History}} {
		if slices.Contains(entries, w.what+".md") {
			add(resourceURI{kind: f.kind, slug: f.slug, what: w.what}, w.what+".md", fmt.Sprintf(w.text.Item.In(lang), f.slug))
		}
	}
	var names []string
	for _, e := range snap.Dirs[f.dir+"/archives"] {
		if strings.HasSuffix(e, ".md") {
			names = append(names, e)
		}
	}
	slices.Sort(names)
	slices.Reverse(names)
	for _, n := range names {
		add(resourceURI{kind: f.kind, slug: f.slug, what: "archive", name: n}, "archives/"+n, fmt.Sprintf(texts.Archive.Item.In(lang), f.slug, strings.TrimSuffix(n, ".md")))
	}
	return out, nil
}

// cursor is where a resources/list page starts: the n-th resource of
// folder.
type cursor struct {
	folder folder
	n      int
}

// makeCursor encodes a cursor: opaque to clients, as MCP asks.
func makeCursor(f folder, n int) string {
	return base64.RawURLEncoding.EncodeToString([]byte(f.kind + "/" + f.slug + "/" + strconv.Itoa(n)))
}

// parseCursor decodes a cursor; "" is the first page.
func parseCursor(s string) (cursor, error) {
	if s == "" {
		return cursor{}, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	parts := strings.Split(string(b), "/")
	if err == nil && len(parts) == 3 {
		if n, err := strconv.Atoi(parts[2]); err == nil && n >= 0 {
			return cursor{folder{kind: parts[0], slug: parts[1]}, n}, nil
		}
	}
	return cursor{}, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid cursor: pass the nextCursor of the previous page as it came"}
}

// templateKind is the kind of the folders a URI template of this server
// names ("" for any other template).
func templateKind(uriTemplate string) string {
	for _, kind := range resourceKinds {
		if strings.HasPrefix(uriTemplate, resourceScheme+kind+"/{slug}/") {
			return kind
		}
	}
	return ""
}
