package engine

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tetratelabs/wazero/sys"

	"github.com/kessho/kessho/core"
	"github.com/kessho/kessho/core/hostlogic"
	"github.com/kessho/kessho/core/vault"
	"github.com/kessho/kessho/core/wire"
)

// cacheDir is a compilation cache shared by every test and benchmark of the
// run, so the module compiles once per mode, not once per engine.
var cacheDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "kessho-engine-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	cacheDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// note is a context note of about 4.4 KB, with accents before and after
// its frontmatter keys.
var note = func() string {
	var b strings.Builder
	b.WriteString("---\ntitle: Kessho — documentation\nphase: rédaction\nstatus: active\ntags: [kessho, docs, été]\nupdated: 2026-11-29\n---\n\n# Contexte\n\n")
	for i := 0; b.Len() < 4400; i++ {
		fmt.Fprintf(&b, "- Étape %d : relire le chapitre, vérifier les liens [[note-%d]] et noter les décisions.\n", i, i)
	}
	return b.String()
}()

// benchVault is the vault the benchmark's request reads: one project whose
// context note is about 4.4 KB.
var benchVault = testVault{
	"10-episodes/projects/kessho-docs/context.md": note,
	"10-episodes/projects/other/context.md":       "---\nphase: draft\n---\n",
}

// benchRequest is the request the benchmarks send: mem_update_phase on
// benchVault, grown with every need until the core can answer in one call.
// Swap it for another deterministic request to measure other work.
var benchRequest = sync.OnceValue(func() []byte {
	req := map[string]any{"tool": "mem_update_phase", "args": map[string]any{"slug": "kessho-docs", "phase": "relecture"},
		"now": "2026-11-30T10:15:00+01:00", "tz": "Europe/Paris", "lang": "en"}
	b, _, err := benchVault.resolve(req)
	if err != nil {
		panic(err)
	}
	return b
})

// request builds a request that carries text as a context note.
func request(tool, lang string, args any, text string) []byte {
	req := map[string]any{
		"tool": tool, "args": args, "now": "2026-11-30T10:15:00+01:00", "tz": "Europe/Paris", "lang": lang,
		"files": map[string]any{
			"10-episodes/projects/kessho-docs/context.md": map[string]any{"sha256": strings.Repeat("ab", 32), "text": text},
		},
		"missing": []string{"10-episodes/archived/kessho-docs/context.md"},
	}
	b, err := json.Marshal(req)
	if err != nil {
		panic(err)
	}
	return b
}

// testVault maps vault paths to file texts; folders are implied.
type testVault map[string]string

// resolve answers the core's needs from v (through the native engine)
// until it answers something else; it returns the last request and every
// request it sent.
func (v testVault) resolve(req map[string]any) ([]byte, [][]byte, error) {
	files := map[string]any{}
	dirs := map[string][]string{}
	matches := map[string][]string{}
	missing := []string{}
	var sent [][]byte
	for range 8 {
		req["files"], req["dirs"], req["missing"], req["matches"] = files, dirs, missing, matches
		b, err := json.Marshal(req)
		if err != nil {
			return nil, nil, err
		}
		sent = append(sent, b)
		var ans struct {
			Need *struct {
				Files, Dirs []string
				Trees       []struct {
					Root    string
					Content bool
				}
				Matches []vault.Match
			}
		}
		out, _ := Native().Call(context.Background(), b)
		if err := json.Unmarshal(out, &ans); err != nil {
			return nil, nil, err
		}
		if ans.Need == nil {
			return b, sent, nil
		}
		addFile := func(p string) {
			if text, ok := v[p]; ok {
				sum := sha256.Sum256([]byte(text))
				files[p] = map[string]any{"sha256": hex.EncodeToString(sum[:]), "text": text}
			} else if !v.isDir(p) {
				missing = append(missing, p)
			}
		}
		addDir := func(d string) {
			if v.isDir(d) {
				dirs[d] = v.entries(d)
			} else {
				missing = append(missing, d)
			}
		}
		for _, p := range ans.Need.Files {
			addFile(p)
		}
		for _, d := range ans.Need.Dirs {
			addDir(d)
		}
		for _, m := range ans.Need.Matches {
			if !v.isDir(m.Dir) {
				missing = append(missing, m.Dir)
				continue
			}
			selected := []string{}
			for _, e := range v.entries(m.Dir) {
				if m.Selects(strings.TrimSuffix(e, "/")) {
					selected = append(selected, e)
				}
			}
			matches[m.Key()] = selected
		}
		for _, tr := range ans.Need.Trees {
			for p := range v {
				for d := path.Dir(p); d != "." && (d == tr.Root || strings.HasPrefix(d, tr.Root+"/") || tr.Root == ""); d = path.Dir(d) {
					addDir(d)
				}
				if tr.Content && (tr.Root == "" || strings.HasPrefix(p, tr.Root+"/")) {
					addFile(p)
				}
			}
			if tr.Root == "" {
				addDir("")
			}
		}
	}
	return nil, nil, fmt.Errorf("still needing after 8 rounds: %s", sent[len(sent)-1])
}

func (v testVault) isDir(d string) bool {
	if d == "" {
		return true
	}
	for p := range v {
		if strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}

// entries lists folder d as the core expects: sorted, sub-folders with a
// trailing "/".
func (v testVault) entries(d string) []string {
	prefix := d + "/"
	if d == "" {
		prefix = ""
	}
	seen := map[string]bool{}
	list := []string{}
	for p := range v {
		rest, ok := strings.CutPrefix(p, prefix)
		if !ok {
			continue
		}
		name, _, sub := strings.Cut(rest, "/")
		if sub {
			name += "/"
		}
		if !seen[name] {
			seen[name] = true
			list = append(list, name)
		}
	}
	sort.Strings(list)
	return list
}

// requests are answered identically by every engine.
var requests = map[string][]byte{
	"unknown tool":      []byte(`{"tool":"nope","now":"2026-11-30T10:15:00+01:00"}`),
	"unknown tool fr":   []byte(`{"tool":"nope","now":"2026-11-30T10:15:00+01:00","lang":"fr"}`),
	"not json":          []byte(`{"tool":`),
	"empty":             {},
	"bad lang":          []byte(`{"tool":"nope","now":"2026-11-30T10:15:00+01:00","lang":"de"}`),
	"no now":            []byte(`{"tool":"nope"}`),
	"bad now":           []byte(`{"tool":"nope","now":"30/11/2026"}`),
	"bad tz":            []byte(`{"tool":"nope","now":"2026-11-30T10:15:00+01:00","tz":"Mars/Olympus"}`),
	"unicode tool name": []byte(`{"tool":"outil-é-🙂","now":"2026-11-30T10:15:00+01:00"}`),
	"big note":          request("nope", "fr", nil, strings.Repeat(note, 15)),
}

func init() {
	// Every round of mem_update_phase's need loop, and a refusal.
	for i, phase := range []string{"relecture", "", strings.Repeat("é", 300)} {
		_, sent, err := benchVault.resolve(map[string]any{"tool": "mem_update_phase",
			"args": map[string]any{"slug": "kessho-docs", "phase": phase},
			"now":  "2026-11-30T10:15:00+01:00", "tz": "Europe/Paris", "lang": []string{"en", "fr"}[i%2]})
		if err != nil {
			panic(err)
		}
		for round, req := range sent {
			requests[fmt.Sprintf("mem_update_phase %q round %d", phase, round)] = req
		}
	}
}

func testWasm(t testing.TB, opts WasmOptions) *Wasm {
	t.Helper()
	if opts.CacheDir == "" {
		opts.CacheDir = cacheDir
	}
	w, err := NewWasm(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := w.Close(context.Background()); err != nil {
			t.Error(err)
		}
	})
	return w
}

func TestBenchRequest(t *testing.T) {
	out, err := Native().Call(context.Background(), benchRequest())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(out, []byte(`{"ok":true`)) {
		t.Errorf("the benchmark's request gets %s; want a result", out)
	}
}

func TestSameAnswers(t *testing.T) {
	ctx := context.Background()
	n := Native()
	engines := map[string]Engine{
		"wasm":           testWasm(t, WasmOptions{}),
		"wasm-interrupt": testWasm(t, WasmOptions{Interrupt: true}),
	}
	for name, req := range requests {
		want, err := n.Call(ctx, req)
		if err != nil {
			t.Fatalf("%s: native: %v", name, err)
		}
		if !json.Valid(want) {
			t.Errorf("%s: native answer is not JSON: %s", name, want)
		}
		for ename, e := range engines {
			got, err := e.Call(ctx, req)
			if err != nil {
				t.Errorf("%s: %s: %v", name, ename, err)
				continue
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s: %s.Call(%q) =\n%s\nwant (native)\n%s", name, ename, req, got, want)
			}
		}
	}
}

// TestModuleExports checks the module's interface (wasm/main.go): its
// memory, the reactor's _initialize, and two functions, alloc and call.
func TestModuleExports(t *testing.T) {
	w := testWasm(t, WasmOptions{PoolSize: 1})
	funcs := slices.Sorted(maps.Keys(w.compiled.ExportedFunctions()))
	if want := []string{"_initialize", "alloc", "call"}; !slices.Equal(funcs, want) {
		t.Errorf("the module exports the functions %q; want %q", funcs, want)
	}
	mems := slices.Sorted(maps.Keys(w.compiled.ExportedMemories()))
	if want := []string{"memory"}; !slices.Equal(mems, want) {
		t.Errorf("the module exports the memories %q; want %q", mems, want)
	}
}

// TestCallEntries runs each entry of the module's call on one instance
// (wasm/main.go): core.Core.Handle and hostlogic.Step (a plan's apply,
// and a call's step that runs its round) answer as they do natively, and an input the module did not hand out, or with
// no handler's tag, gets no answer (0) and leaves the instance sound.
func TestCallEntries(t *testing.T) {
	ctx := context.Background()
	w := testWasm(t, WasmOptions{PoolSize: 1})
	in, err := w.get(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer in.close()
	req := requests["unknown tool"]
	clock := `"now":"2026-11-30T10:15:00Z","wall":"2026-11-30T10:15:00Z","random":"00"}`
	apply := []byte(`{"start":{"plan":[{"op":"write","path":"a.md","expect":"absent","text":"A"}],"journals":[]},` + clock)
	round := []byte(`{"start":{"call":{"tool":"nope","lang":"fr","max_rounds":8},"journals":[]},` + clock +
		"\x002026-11-30T10:15:00.5+01:00\x00{\"tool\":\"nope\",\"now\":\x00}")
	for _, c := range []struct {
		entry       wire.Entry
		input, want []byte
	}{
		{wire.EntryHandle, req, core.New().Handle(req)},
		{wire.EntryStep, apply, hostlogic.Step(apply, nil)},
		{wire.EntryStep, round, hostlogic.Step(round, core.New().HandleAnswer)},
	} {
		got, err := in.exchange(ctx, c.entry, c.input, DefaultMaxAnswer)
		if err != nil {
			t.Fatalf("entry %q: %v", c.entry, err)
		}
		if !bytes.Equal(got, c.want) {
			t.Errorf("entry %q of %q =\n%q\nwant (native)\n%q", c.entry, c.input, got, c.want)
		}
	}
	if got, err := in.exchange(ctx, 'x', req, DefaultMaxAnswer); err == nil {
		t.Errorf("entry 'x' answered %q; want no answer", got)
	}
	// A valid input at an address inside the last alloc's buffer but not
	// its start, then at its start once that refused call used it up.
	valid := append([]byte{byte(wire.EntryHandle), byte(wire.EntryHandle)}, req...)
	s := in.stack[:]
	s[0] = uint64(len(valid))
	if err := in.alloc.CallWithStack(ctx, s[:1]); err != nil {
		t.Fatal(err)
	}
	ptr := uint32(s[0])
	in.mem.Write(ptr, valid)
	for _, at := range []uint32{ptr + 1, ptr} {
		s[0], s[1] = uint64(at), uint64(len(valid)-int(at-ptr))
		if err := in.call.CallWithStack(ctx, s); err != nil {
			t.Fatal(err)
		}
		if s[0] != 0 {
			t.Errorf("call on %#x (the buffer at %#x) answered %#x; want 0", at, ptr, s[0])
		}
	}
	if got, err := in.exchange(ctx, wire.EntryHandle, req, DefaultMaxAnswer); err != nil || !bytes.Equal(got, core.New().Handle(req)) {
		t.Errorf("after the refused calls: %q, %v; want the native answer", got, err)
	}
}

func TestHammer(t *testing.T) {
	ctx := context.Background()
	w := testWasm(t, WasmOptions{PoolSize: 4})
	reqs := make([][]byte, 0, len(requests))
	wants := make([][]byte, 0, len(requests))
	for _, req := range requests {
		want, _ := Native().Call(ctx, req)
		reqs = append(reqs, req)
		wants = append(wants, want)
	}
	const goroutines, calls = 8, 50
	var wg sync.WaitGroup
	errs := make(chan error, goroutines*calls)
	for g := range goroutines {
		wg.Go(func() {
			for i := range calls {
				k := (g*calls + i) % len(reqs)
				got, err := w.Call(ctx, reqs[k])
				if err != nil {
					errs <- err
					continue
				}
				if !bytes.Equal(got, wants[k]) {
					errs <- fmt.Errorf("Call(%q) = %s; want %s", reqs[k], got, wants[k])
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := len(w.idle); n > 4 {
		t.Errorf("%d idle instances; want at most PoolSize 4", n)
	}
}

// slowRequest takes the core well over a millisecond to decode.
func slowRequest() []byte {
	return request("nope", "en", nil, strings.Repeat("Une ligne assez longue, avec des accents : é, è, à.\n", 300_000))
}

func TestDeadlineDiscardsInstance(t *testing.T) {
	for _, interrupt := range []bool{false, true} {
		t.Run(fmt.Sprintf("interrupt=%v", interrupt), func(t *testing.T) {
			ctx := context.Background()
			w := testWasm(t, WasmOptions{PoolSize: 1, Interrupt: interrupt})
			slow := slowRequest()
			// The slow request takes seconds: Call returns at its deadline
			// with the call stopped (interrupt) or left to run aside, not
			// waited for. On a busy machine the call may not have started
			// its work by the deadline: the guard then ends it at its first
			// clock reading and nothing runs aside, which is no failure of
			// the engine; that attempt is made again with twice the
			// deadline (the slow request's seconds leave room for five).
			for attempt, deadline := 1, 200*time.Millisecond; ; attempt, deadline = attempt+1, 2*deadline {
				// An idle instance first, so that the slow call starts at
				// once (starting one could take the whole deadline).
				if _, err := w.Call(ctx, requests["unknown tool"]); err != nil {
					t.Fatal(err)
				}
				waitBackground(t, w)
				before := w.abandoned.Load()
				short, cancel := context.WithTimeout(ctx, deadline)
				_, err := w.Call(short, slow)
				cancel()
				if !errors.Is(err, context.DeadlineExceeded) {
					t.Fatalf("Call(slow request) error = %v; want context.DeadlineExceeded", err)
				}
				// Counted when Call returned: the guard may end the call
				// the moment after, so whether it still runs is a race.
				n := w.abandoned.Load() - before
				if interrupt || n == 1 {
					break
				}
				if n > 1 || attempt == 5 {
					t.Fatalf("%d calls left to run aside when Call returned at its deadline (attempt %d, %v); want the slow one", n, attempt, deadline)
				}
			}
			if n := len(w.idle); n != 0 {
				t.Fatalf("%d idle instances after a timeout; want the failed one discarded", n)
			}
			started := w.started.Load()
			if _, err := w.Call(ctx, requests["unknown tool"]); err != nil {
				t.Fatalf("Call after a timeout: %v", err)
			}
			if got := w.started.Load(); got != started+1 {
				t.Errorf("%d instances started by the call after a timeout; want 1", got-started)
			}
			waitBackground(t, w) // the abandoned call, if any, ends
		})
	}
}

// waitBackground waits for the calls that went on after their Call returned.
func waitBackground(t *testing.T, w *Wasm) {
	t.Helper()
	for start := time.Now(); ; time.Sleep(10 * time.Millisecond) {
		n := running(w)
		if n == 0 {
			return
		}
		if time.Since(start) > 5*time.Minute {
			t.Fatalf("%d calls still running 5 minutes after their deadline", n)
		}
	}
}

// running is the number of calls still running after their Call returned.
func running(w *Wasm) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.background
}

func TestGuard(t *testing.T) {
	g := newGuard()
	if a, b := g.nanotime(), g.nanotime(); a != 0 || b != int64(time.Millisecond) {
		t.Errorf("nanotime readings %d, %d; want 0, 1ms (wazero's fake clock)", a, b)
	}
	if sec, nsec := g.walltime(); sec != 1640995200 || nsec != 0 {
		t.Errorf("walltime() = %d, %d; want 1640995200, 0 (wazero's fake clock)", sec, nsec)
	}
	stops := func(name string, f func()) *sys.ExitError {
		t.Helper()
		var exit *sys.ExitError
		func() {
			defer func() { exit, _ = recover().(*sys.ExitError) }()
			f()
		}()
		if exit == nil {
			t.Errorf("%s did not stop the call", name)
		}
		return exit
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	disarm := g.arm(ctx)
	g.osyield() // does not panic
	cancel()
	if e := stops("osyield after cancel", g.osyield); e != nil && e.ExitCode() != sys.ExitCodeContextCanceled {
		t.Errorf("exit code %d; want ExitCodeContextCanceled", e.ExitCode())
	}
	disarm()

	ctx, cancel = context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	disarm = g.arm(ctx)
	for name, f := range map[string]func(){
		"nanotime": func() { g.nanotime() }, "walltime": func() { g.walltime() },
		"nanosleep": func() { g.nanosleep(1) }, "osyield": g.osyield,
	} {
		if e := stops(name+" past the deadline", f); e != nil && e.ExitCode() != sys.ExitCodeContextCanceled && e.ExitCode() != sys.ExitCodeDeadlineExceeded {
			t.Errorf("%s: exit code %d; want a deadline or cancellation", name, e.ExitCode())
		}
	}
	disarm()
}

func TestCanceledContext(t *testing.T) {
	w := testWasm(t, WasmOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := w.Call(ctx, requests["unknown tool"]); !errors.Is(err, context.Canceled) {
		t.Fatalf("Call(canceled context) error = %v; want context.Canceled", err)
	}
	w1 := testWasm(t, WasmOptions{CallTimeout: time.Nanosecond})
	if _, err := w1.Call(context.Background(), requests["unknown tool"]); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Call with CallTimeout 1ns: error = %v; want context.DeadlineExceeded", err)
	}
	if _, err := w.Call(context.Background(), requests["unknown tool"]); err != nil {
		t.Fatalf("Call after a canceled one: %v", err)
	}
}

func TestLimits(t *testing.T) {
	ctx := context.Background()
	w := testWasm(t, WasmOptions{MaxRequest: 200, MaxAnswer: 300, PoolSize: 1})
	if _, err := w.Call(ctx, benchRequest()); !errors.Is(err, ErrLimit) {
		t.Errorf("Call(%d bytes) with MaxRequest 200: error = %v; want ErrLimit", len(benchRequest()), err)
	}
	long := []byte(`{"tool":"` + strings.Repeat("x", 100) + `","now":"2026-11-30T10:15:00+01:00"}`)
	if _, err := w.Call(ctx, long); !errors.Is(err, ErrLimit) {
		t.Errorf("Call with a long answer and MaxAnswer 300: error = %v; want ErrLimit", err)
	}
	if n := len(w.idle); n != 0 {
		t.Errorf("%d idle instances after an answer over the limit; want it discarded", n)
	}
	if _, err := w.Call(ctx, []byte(`{"tool":"x"}`)); err != nil {
		t.Errorf("Call within the limits: %v", err)
	}
}

func TestOutOfMemory(t *testing.T) {
	ctx := context.Background()
	w := testWasm(t, WasmOptions{MemoryLimitPages: 256}) // 16 MiB
	_, err := w.Call(ctx, slowRequest())
	if !errors.Is(err, ErrLimit) {
		t.Fatalf("Call(%d bytes) with 16 MiB of memory: error = %v; want ErrLimit", len(slowRequest()), err)
	}
	if !strings.Contains(err.Error(), "out of memory") {
		t.Errorf("error = %v; want it to say out of memory", err)
	}
	if _, err := w.Call(ctx, requests["unknown tool"]); err != nil {
		t.Fatalf("Call after running out of memory: %v", err)
	}
}

func TestMemoryLimitBelowMinimum(t *testing.T) {
	_, err := NewWasm(context.Background(), WasmOptions{CacheDir: cacheDir, MemoryLimitPages: 10})
	if err == nil || !strings.Contains(err.Error(), "memory limit of 10 pages") || !strings.Contains(err.Error(), "over limit") {
		t.Fatalf("NewWasm(MemoryLimitPages: 10) error = %v; want the limit and the module's minimum", err)
	}
	if _, err := NewWasm(context.Background(), WasmOptions{CacheDir: cacheDir, MemoryLimitPages: 70000}); err == nil {
		t.Fatal("NewWasm(MemoryLimitPages: 70000) succeeded; want an error")
	}
}

// TestHeapFlat checks that the module's garbage collector keeps up between
// calls (each export ends with runtime.Gosched; without it the heap of a
// reactor grows by hundreds of MiB over these calls).
func TestHeapFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("2,000 calls")
	}
	ctx := context.Background()
	w := testWasm(t, WasmOptions{PoolSize: 1})
	reqs := [][]byte{benchRequest(), request("nope", "en", nil, strings.Repeat(note, 15))}
	for i := range 2000 {
		if _, err := w.Call(ctx, reqs[i%2]); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	if n := w.started.Load(); n != 1 {
		t.Fatalf("%d instances started; want the one reused", n)
	}
	pages, err := w.MemoryPages(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d pages after 2,000 calls", pages)
	if pages > 256 {
		t.Errorf("%d pages (%d MiB) after 2,000 calls; want at most 256", pages, pages/16)
	}
}

func TestClose(t *testing.T) {
	ctx := context.Background()
	for name, e := range map[string]Engine{"native": Native(), "wasm": testWasm(t, WasmOptions{})} {
		if err := e.Close(ctx); err != nil {
			t.Fatalf("%s: Close: %v", name, err)
		}
		if err := e.Close(ctx); err != nil {
			t.Errorf("%s: second Close: %v", name, err)
		}
		if _, err := e.Call(ctx, requests["unknown tool"]); !errors.Is(err, ErrClosed) {
			t.Errorf("%s: Call after Close: error = %v; want ErrClosed", name, err)
		}
	}
}

// TestCloseStopsCalls checks that Close ends the calls in flight.
func TestCloseStopsCalls(t *testing.T) {
	slow := slowRequest()
	for _, interrupt := range []bool{false, true} {
		t.Run(fmt.Sprintf("interrupt=%v", interrupt), func(t *testing.T) {
			w := testWasm(t, WasmOptions{Interrupt: interrupt})
			done := make(chan error)
			go func() {
				_, err := w.Call(context.Background(), slow)
				done <- err
			}()
			time.Sleep(20 * time.Millisecond)
			if err := w.Close(context.Background()); err != nil {
				t.Fatal(err)
			}
			// The slow request takes seconds: Close stopped it (interrupt)
			// or left it to run aside, and did not wait for it (when the
			// call had started before Close, which a loaded machine may
			// not have done).
			n := running(w)
			if err := <-done; !errors.Is(err, ErrClosed) {
				t.Errorf("Call during Close: error = %v; want ErrClosed", err)
			}
			if interrupt && n != 0 || n > 1 {
				t.Errorf("%d calls running aside after Close", n)
			}
			waitBackground(t, w)
		})
	}
}

func BenchmarkNative(b *testing.B) {
	benchmarkCall(b, Native(), benchRequest())
}

func BenchmarkWasmWarm(b *testing.B) {
	for _, mode := range []struct {
		name string
		opts WasmOptions
	}{
		{"guard", WasmOptions{PoolSize: 1}},
		{"interrupt", WasmOptions{PoolSize: 1, Interrupt: true}},
	} {
		b.Run(mode.name, func(b *testing.B) {
			w := testWasm(b, mode.opts)
			benchmarkCall(b, w, benchRequest())
			pages, err := w.MemoryPages(context.Background())
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(pages), "pages/instance")
		})
	}
}

// benchmarkCall measures warm calls of req on e.
func benchmarkCall(b *testing.B, e Engine, req []byte) {
	ctx := context.Background()
	if _, err := e.Call(ctx, req); err != nil { // warm up
		b.Fatal(err)
	}
	b.SetBytes(int64(len(req)))
	for b.Loop() {
		if _, err := e.Call(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWasmCold measures a fresh engine's first answer with a warm disk
// cache: loading the compiled module, starting an instance, one call.
func BenchmarkWasmCold(b *testing.B) {
	ctx := context.Background()
	req := benchRequest()
	opts := WasmOptions{CacheDir: cacheDir}
	w, err := NewWasm(ctx, opts) // warm the cache
	if err != nil {
		b.Fatal(err)
	}
	w.Close(ctx)
	var pages uint32
	for b.Loop() {
		w, err := NewWasm(ctx, opts)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := w.Call(ctx, req); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		pages, _ = w.MemoryPages(ctx)
		w.Close(ctx)
		b.StartTimer()
	}
	mod, _ := module()
	b.ReportMetric(float64(len(mod)), "module-bytes")
	b.ReportMetric(float64(pages), "pages/instance")
}

func TestPruneCaches(t *testing.T) {
	root := t.TempDir()
	old := time.Now().Add(-time.Hour)
	for i, name := range []string{"a", "b", "c", "d", "mine"} {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Join(p, "wazero-x"), 0o700); err != nil {
			t.Fatal(err)
		}
		mod := old.Add(time.Duration(i) * time.Minute) // a oldest, d newest
		if err := os.Chtimes(p, mod, mod); err != nil {
			t.Fatal(err)
		}
	}
	pruneCaches(root, "mine", 2)
	entries, _ := os.ReadDir(root)
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if want := []string{"c", "d", "mine"}; !slices.Equal(got, want) {
		t.Errorf("after pruning: %v; want %v", got, want)
	}
}

// TestBuildModule builds the core module as a binary without it does (on a
// fresh clone, every wasm test runs on that module) and checks it is the
// module `make wasm` embeds, byte for byte: same source, same build
// arguments. A difference means the embedded module is stale (run
// `make wasm`) or the Makefile and buildArgs disagree.
func TestBuildModule(t *testing.T) {
	built, err := buildModule()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(built, []byte("\x00asm")) {
		t.Fatalf("buildModule gave %d bytes starting %q; want a WebAssembly module", len(built), built[:min(len(built), 8)])
	}
	embeddedModule, err := embedded.ReadFile(moduleFile)
	if err != nil {
		t.Logf("no embedded module (%v): the engine uses the one built on demand", err)
		if got, _ := module(); !bytes.Equal(got, built) {
			t.Errorf("module() is not the module built on demand")
		}
		return
	}
	if !bytes.Equal(built, embeddedModule) {
		t.Errorf("the module built on demand (%d bytes) differs from the embedded one (%d bytes): run `make wasm`", len(built), len(embeddedModule))
	}
}

// TestCachedModule checks that a binary without the module builds it once
// into the cache and reads it from there afterwards, and that the
// caches of other binaries are pruned.
func TestCachedModule(t *testing.T) {
	root := t.TempDir()
	for _, old := range []string{"exe-a", "exe-b", "exe-c"} {
		if err := os.MkdirAll(filepath.Join(root, old), 0o700); err != nil {
			t.Fatal(err)
		}
		past := time.Now().Add(-time.Hour)
		os.Chtimes(filepath.Join(root, old), past, past)
	}
	built, err := cachedModule(root)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(built, []byte("\x00asm")) {
		t.Fatalf("cachedModule gave %d bytes that are not a module", len(built))
	}
	files, _ := filepath.Glob(filepath.Join(root, "*", "kessho.wasm"))
	if len(files) != 1 {
		t.Fatalf("cached modules %q; want one", files)
	}
	if entries, _ := os.ReadDir(root); len(entries) != 1+keepOtherModules {
		t.Errorf("%d folders in the module cache; want this binary's and %d others", len(entries), keepOtherModules)
	}
	marked := append([]byte("\x00asm"), "from the cache"...)
	if err := os.WriteFile(files[0], marked, 0o600); err != nil {
		t.Fatal(err)
	}
	if again, err := cachedModule(root); err != nil || !bytes.Equal(again, marked) {
		t.Errorf("second cachedModule gave %d bytes, %v; want the cached file's", len(again), err)
	}
}

// TestCacheReadsBuffered starts an engine from a warm disk cache and
// counts the reads that reach the compiled module's file, each a system
// call: through the buffer, about one per cacheBuffer of the file, where
// wazero's own reads took one per function of the core (some 4,900, most
// of 8 bytes).
func TestCacheReadsBuffered(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	testWasm(t, WasmOptions{CacheDir: dir}) // compiles, fills the cache
	var size int64
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			info, err := d.Info()
			if err != nil {
				return err
			}
			size += info.Size()
		}
		return err
	})
	if err != nil || size == 0 {
		t.Fatalf("the cache holds %d bytes (%v); want the compiled module", size, err)
	}
	before := cacheReads.Load()
	w, err := NewWasm(ctx, WasmOptions{CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close(ctx)
	if !bufferCacheReads(w.cache) {
		t.Fatal("the compilation cache's disk cache could not be wrapped (has wazero's cache changed?)")
	}
	reads := cacheReads.Load() - before
	if most := size/cacheBuffer + 8; reads == 0 || reads > most {
		t.Errorf("loading %d bytes of compiled module took %d reads of its file; want 1 to %d", size, reads, most)
	}
	for name, req := range requests {
		got, err := w.Call(ctx, req)
		if err != nil {
			t.Fatalf("%s, on the engine loaded through the buffer: %v", name, err)
		}
		if want := Native().(*native); !bytes.Equal(got, mustCall(t, want, req)) {
			t.Errorf("%s: the engine loaded through the buffer answers %s", name, got)
		}
	}
}

func mustCall(t *testing.T, e Engine, req []byte) []byte {
	t.Helper()
	b, err := e.Call(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRecycleAfterALargeCall: an instance whose memory grew past
// RecyclePages is dropped after its call, not kept (its Go heap never
// gives its pages back); the next call starts a fresh one and answers,
// and an instance that stayed under the bound is reused.
func TestRecycleAfterALargeCall(t *testing.T) {
	ctx := context.Background()
	small := request("nope", "en", nil, note)
	probe := testWasm(t, WasmOptions{PoolSize: 1})
	if _, err := probe.Call(ctx, small); err != nil {
		t.Fatal(err)
	}
	base, err := probe.MemoryPages(ctx)
	if err != nil {
		t.Fatal(err)
	}
	w := testWasm(t, WasmOptions{PoolSize: 1, RecyclePages: base + 128}) // 8 MiB of room
	for range 3 {
		if _, err := w.Call(ctx, small); err != nil {
			t.Fatal(err)
		}
	}
	if s, r := w.started.Load(), w.recycled.Load(); s != 1 || r != 0 {
		t.Fatalf("small calls: %d instances started, %d recycled; want 1 reused", s, r)
	}
	large := request("mem_update_phase", "en", map[string]string{"slug": "kessho-docs", "phase": "x"}, strings.Repeat(note, 8000)) // 35 MB of text
	if _, err := w.Call(ctx, large); err != nil {
		t.Fatal(err)
	}
	if r := w.recycled.Load(); r != 1 {
		t.Fatalf("after a call of 35 MB: %d instances recycled; want 1", r)
	}
	if a, err := w.Call(ctx, small); err != nil || !bytes.Contains(a, []byte("unknown tool")) {
		t.Fatalf("the call after: %s, %v", a, err)
	}
	if s := w.started.Load(); s != 2 {
		t.Fatalf("%d instances started; want a fresh one after the large call", s)
	}
}
