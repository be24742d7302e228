package mcp

import (
	"context"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/vault"
)

// The resources' notifications, on every transport that keeps a session
// (stdio, and HTTP but for the newest revision's stateless requests, whose
// clients listen with subscriptions/listen, which the SDK serves alike):
//
//   - a call of this server that writes tells at once: a written file is
//     notifications/resources/updated for its URI (to the sessions that
//     subscribed to it), and a file created, deleted or moved (an
//     archive, a new project, historize) is
//     notifications/resources/list_changed;
//   - while a client is subscribed to a resource, changes made by others
//     (a person in Obsidian, another agent's server, git) are seen by
//     polling the vault's notes: the same listing mem_search keeps, which
//     on Linux an inotify watch of every folder (host/vaultfs) keeps
//     without walking the vault while nothing changes, so a poll of a
//     quiet vault costs nothing. Elsewhere each poll walks the vault (a
//     stat a note), so it polls less often. Nothing polls while no client
//     is subscribed.
type notifier struct {
	srv   *sdk.Server
	notes func(ctx context.Context) (notes map[string]string, listing string, ok bool)
	every time.Duration
	// relist makes the SDK send resources/list_changed.
	relist func()

	mu       sync.Mutex
	subs     map[string]int    // subscribed URI → subscriptions
	versions map[string]string // subscribed URI → its file's version at the last poll
	files    []string          // the resource files at the last poll, sorted
	listing  string            // the listing's digest at the last poll
	polling  bool
}

// pollEvery is how often a server with subscribers polls the vault: on
// Linux a poll of a vault that did not change is free (see notifier).
func pollEvery() time.Duration {
	if runtime.GOOS == "linux" {
		return 2 * time.Second
	}
	return 15 * time.Second
}

// subscribe and unsubscribe are the SDK's SubscribeHandler and
// UnsubscribeHandler: they count the subscriptions, and the first starts
// the polling.
func (n *notifier) subscribe(_ context.Context, req *sdk.SubscribeRequest) error {
	if _, ok := parseResourceURI(req.Params.URI); !ok {
		return notFound(req.Params.URI, "not a kessho:// resource: subscribe to a URI that resources/list or a template gives")
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.subs[req.Params.URI]++
	if !n.polling {
		n.polling = true
		n.listing, n.files, n.versions = "", nil, map[string]string{}
		go n.poll()
	}
	return nil
}

func (n *notifier) unsubscribe(_ context.Context, req *sdk.UnsubscribeRequest) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.subs[req.Params.URI] > 1 {
		n.subs[req.Params.URI]--
	} else {
		delete(n.subs, req.Params.URI)
	}
	return nil
}

// poll polls the vault every n.every while a subscription is left and a
// session is open (a session that ends keeps its subscriptions in the
// SDK until the server forgets them: they are dropped with it).
func (n *notifier) poll() {
	for {
		n.check(context.Background())
		time.Sleep(n.every)
		n.mu.Lock()
		open := false
		for range n.srv.Sessions() {
			open = true
			break
		}
		if !open {
			clear(n.subs)
		}
		if len(n.subs) == 0 {
			n.polling = false
			n.mu.Unlock()
			return
		}
		n.mu.Unlock()
	}
}

// check compares the vault's notes with the last poll's: a subscribed
// resource whose file changed is updated, a change in the set of resource
// files changes the list. The first poll only records.
func (n *notifier) check(ctx context.Context) {
	notes, listing, ok := n.notes(ctx)
	if !ok {
		return
	}
	n.mu.Lock()
	if listing == n.listing {
		n.mu.Unlock()
		return
	}
	first := n.listing == ""
	n.listing = listing
	var updated []string
	for uri := range n.subs {
		v := versionOf(notes, uri)
		if old, seen := n.versions[uri]; seen && old != v {
			updated = append(updated, uri)
		}
		n.versions[uri] = v
	}
	var files []string
	for p := range notes {
		if isResourceFile(p) {
			files = append(files, p)
		}
	}
	slices.Sort(files)
	listChanged := !first && !slices.Equal(files, n.files)
	n.files = files
	n.mu.Unlock()
	n.send(ctx, updated, listChanged)
}

// versionOf is the version of the file uri names in notes ("" when
// none): a project's file is in projects/ or, archived, in archived/. A
// URI naming an archive by "latest" or an index follows no file.
func versionOf(notes map[string]string, uri string) string {
	r, _ := parseResourceURI(uri)
	file := r.what + ".md"
	if r.what == "archive" {
		file = "archives/" + r.name
	}
	for _, kind := range []string{r.kind, vault.KindArchived} {
		if v, ok := notes[vault.Dir(kind, r.slug)+"/"+file]; ok {
			return v
		}
		if r.kind == vault.KindDomain {
			break
		}
	}
	return ""
}

// resourceURIs returns the URIs that name the file at vault path p (a
// project's under both its active and archived folder give the project
// URI), none when p is no resource's.
func resourceURIs(p string) []string {
	for _, kind := range []string{vault.KindProject, vault.KindDomain, vault.KindArchived} {
		rest, ok := strings.CutPrefix(p, vault.Dir(kind, ""))
		if !ok {
			continue
		}
		slug, file, _ := strings.Cut(rest, "/")
		r := resourceURI{kind: vault.Project{Kind: kind}.Type(), slug: slug}
		switch {
		case file == "context.md" || file == "history.md":
			r.what = strings.TrimSuffix(file, ".md")
		case strings.HasPrefix(file, "archives/") && strings.HasSuffix(file, ".md") && !strings.Contains(file[len("archives/"):], "/"):
			r.what, r.name = "archive", file[len("archives/"):]
		default:
			return nil
		}
		return []string{r.String()}
	}
	return nil
}

// isResourceFile reports whether vault path p is a resource's file.
func isResourceFile(p string) bool { return resourceURIs(p) != nil }

// applied tells the clients what a plan this server applied changed.
func (n *notifier) applied(ctx context.Context, p plan.Plan) {
	var updated []string
	listChanged := false
	for _, op := range p {
		switch op.Op {
		case plan.Write:
			updated = append(updated, resourceURIs(op.Path)...)
			listChanged = listChanged || (op.Expect == plan.Absent && isResourceFile(op.Path))
		case plan.Delete:
			listChanged = listChanged || isResourceFile(op.Path)
		case plan.Move:
			listChanged = true
		}
	}
	n.send(ctx, updated, listChanged)
}

// send sends resources/updated for each URI (the SDK sends it to the
// sessions subscribed to it, none else) and, when listChanged,
// resources/list_changed to every session (re-adding a template is how
// the SDK lets a server say so; it debounces them).
func (n *notifier) send(ctx context.Context, updated []string, listChanged bool) {
	for _, uri := range updated {
		n.srv.ResourceUpdated(ctx, &sdk.ResourceUpdatedNotificationParams{URI: uri})
	}
	if listChanged {
		n.relist()
	}
}
