# Kessho — the one entry point. `make demo` and `make test` do everything
# on a fresh machine (Go modules come from the module proxy).

GO      ?= go
# The Go packages: ./... would also take a Go package that an npm
# dependency ships under plugin-shim/node_modules.
GOPKGS  := ./core/... ./host/... ./wasm/...
BIN     := bin/kessho
WASM    := host/engine/module/kessho.wasm
GOFILES := $(shell find core wasm host -name '*.go' -not -name '*_test.go' 2>/dev/null)
# The text files the core embeds (core/i18n): a change rebuilds the module.
GOFILES += $(shell find core -name '*.yaml' -not -path '*/testdata/*' 2>/dev/null)

PLUGIN  := plugin-shim
NPM     ?= npm
# The plugin's scripts read the module from KESSHO_WASM.
export KESSHO_WASM := $(abspath $(WASM))

# The static checkers, pinned, run from the module proxy (their modules
# stay out of go.mod).
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
DEADCODE    := golang.org/x/tools/cmd/deadcode@v0.52.0

.PHONY: all build cli install wasm test vet check demo bench bench-doc docs clean fuzz plugin test-plugin bench-plugin
.PHONY: bench-recall recall-vault release reproduce test-mcp-clients dist npm wire-ts

all: build

# The kessho binary (the wasm core inside) and the Obsidian plugin.
build: cli plugin

# The kessho binary alone: Go, no Node.js, no npm.
cli: $(BIN)

# Installs bin/kessho as $(PREFIX)/bin/kessho (PREFIX=/usr/local by
# default; DESTDIR for packagers), then runs one call on an empty vault
# with the wasm engine, so that the sandbox is compiled into the user's
# cache now rather than on an agent's first call.
PREFIX  ?= /usr/local
install: $(BIN)
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/bin/kessho
	@v=$$(mktemp -d) && $(DESTDIR)$(PREFIX)/bin/kessho --vault $$v --engine wasm list >/dev/null && rm -rf $$v && \
	  echo "installed $(DESTDIR)$(PREFIX)/bin/kessho; the sandbox is compiled: $$($(DESTDIR)$(PREFIX)/bin/kessho version | sed -n 's/^compilation cache: //p')"

wasm: $(WASM)

# The core compiled once to a WASI reactor; the host embeds it. Without
# it (a fresh clone, no make) the engine builds the same module on demand
# with the same arguments (host/engine/module.go, buildArgs).
# -buildvcs=false: the module is the same bytes in a git work tree or
# not, clean or not (REVIEW.md: main.js rebuilt byte for byte).
$(WASM): $(GOFILES) go.mod go.sum
	GOOS=wasip1 GOARCH=wasm $(GO) build -buildmode=c-shared -trimpath -buildvcs=false -ldflags="-s -w" -o $@ ./wasm

# -buildvcs=auto: the version names the git revision when built in a
# work tree (a GOFLAGS=-buildvcs=false in the environment would drop it),
# and nothing fails outside one.
$(BIN): $(WASM) $(GOFILES) go.mod go.sum
	$(GO) build -trimpath -buildvcs=auto -o $@ ./host/cmd/kessho

vet:
	$(GO) vet $(GOPKGS)
	GOOS=wasip1 GOARCH=wasm $(GO) vet ./wasm
	@out=$$(gofmt -l core wasm host); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

# Every static check, all strict: go vet, gofmt, staticcheck, dead code
# (functions no program or test reaches; then functions no program
# reaches, the CLI's and the tools' native build and the wasm module's:
# scripts/deadcode.sh), go.mod and go.sum tidy, and the plugin's lint
# (when its package.json has one). Each runs; any finding fails the
# target.
check: vet $(PLUGIN)/node_modules/.package-lock.json
	@fail=0; \
	$(GO) run $(STATICCHECK) $(GOPKGS) || fail=1; \
	dead=$$($(GO) run $(DEADCODE) -test $(GOPKGS)) || fail=1; \
	if [ -n "$$dead" ]; then echo "dead code:"; echo "$$dead"; fail=1; fi; \
	DEADCODE_PKG=$(DEADCODE) GO="$(GO)" bash scripts/deadcode.sh || fail=1; \
	$(GO) mod tidy -diff || { echo "go.mod or go.sum not tidy: run go mod tidy"; fail=1; }; \
	(cd $(PLUGIN) && $(NPM) run lint --if-present) || fail=1; \
	exit $$fail

# Every test: unit, conformance (both engines), CLI scripts, kill test,
# fuzz seed corpora, then the plugin's and the MCP clients' suites. Each
# suite runs even when one before it failed; the last line names those
# that failed, and any failure fails the target. No test asserts a wall
# time (RATIONALE.md: "Why does no test assert a wall time?"); the
# timeouts only stop a hang.
test: build vet
	@failed=""; \
	$(GO) test -count=1 -timeout 40m $(GOPKGS) || failed="$$failed go"; \
	$(MAKE) test-plugin || failed="$$failed plugin"; \
	$(MAKE) reproduce || failed="$$failed reproduce"; \
	$(MAKE) test-mcp-clients || failed="$$failed mcp-clients"; \
	if [ -n "$$failed" ]; then echo "make test: FAILED:$$failed"; exit 1; fi; \
	echo "make test: all suites passed (go plugin reproduce mcp-clients)"

$(PLUGIN)/node_modules/.package-lock.json: $(PLUGIN)/package-lock.json $(PLUGIN)/package.json
	cd $(PLUGIN) && $(NPM) ci --no-audit --no-fund

# The Obsidian plugin: plugin-shim/{main.js,manifest.json,styles.css}, the wasm inside main.js.
plugin: $(BIN) $(PLUGIN)/node_modules/.package-lock.json
	cd $(PLUGIN) && $(NPM) run build
	@cmp -s $(PLUGIN)/manifest.json manifest.json || cp $(PLUGIN)/manifest.json manifest.json
	@cmp -s $(PLUGIN)/versions.json versions.json || cp $(PLUGIN)/versions.json versions.json

# The plugin's release: dist/kessho-<version>/kessho/{main.js,manifest.json,styles.css}
# and dist/kessho-<version>.zip holding the folder kessho/ (the plugin's id) (what a GitHub release attaches; see
# .github/workflows/release.yml).
release: plugin
	$(GO) run ./host/cmd/pluginrelease -plugin $(PLUGIN) -out dist

# The CLI's release archives: kessho for linux, darwin and windows on amd64
# and arm64 (cross-compiled, CGO_ENABLED=0, -trimpath, DIST_VERSION
# stamped: `kessho --version` prints it), as
# dist/kessho_<version>_<os>_<arch>.tar.gz (.zip for windows) holding
# kessho, README.md and LICENSE, and dist/SHA256SUMS; then
# scripts/check-dist.sh checks every archive and runs the linux/amd64 one.
# The version is the plugin manifest's (RATIONALE.md, "Why do the CLI's
# archives carry the manifest's version?"). A few minutes: not in make test.
DIST_VERSION ?= $(shell sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' manifest.json)
dist: $(WASM)
	GO=$(GO) bash scripts/dist.sh $(DIST_VERSION)

# The npm packages (npm/): kessho, whose launcher runs the binary of the
# platform package npm chose through its optionalDependencies, and
# @kessho/<os>-<cpu>, filled with `make dist`'s builds, packed into
# dist/npm/; then scripts/check-npm.sh installs the tarballs into a
# temporary folder and runs them. Publishing is the release workflow's.
npm: dist
	NPM=$(NPM) bash scripts/npm.sh $(DIST_VERSION)

# Every conformance case through the TypeScript host (Node and headless
# Chromium, Debian's, installed when missing), conflicts, journal interop, forms.
# main.js built a second time from the tracked files alone (another
# folder, an empty Go build cache) must be the same bytes (REVIEW.md).
reproduce: plugin
	GO=$(GO) bash scripts/reproduce.sh

test-plugin: $(BIN) $(PLUGIN)/node_modules/.package-lock.json
	bash $(PLUGIN)/scripts/ensure-chromium.sh
	cd $(PLUGIN) && $(NPM) test
	cd $(PLUGIN) && $(NPM) run lint

# The official TypeScript SDK's MCP client (pinned in tsclient/'s
# package-lock.json) against `kessho mcp`, over stdio and HTTP: the
# clients' test the Go SDK's client passes in host/mcp (clients_test.go);
# then the official MCP conformance suite's server scenarios, with its
# baseline of expected failures (tsclient/conformance/), and MCP
# Inspector's --strict schema check, both pinned there too.
TSCLIENT := tsclient
$(TSCLIENT)/node_modules/.package-lock.json: $(TSCLIENT)/package-lock.json $(TSCLIENT)/package.json
	cd $(TSCLIENT) && $(NPM) ci --no-audit --no-fund

test-mcp-clients: $(BIN) $(TSCLIENT)/node_modules/.package-lock.json
	cd $(TSCLIENT) && KESSHO_BIN=$(abspath $(BIN)) $(NPM) test

bench-plugin: $(BIN) $(PLUGIN)/node_modules/.package-lock.json
	bash $(PLUGIN)/scripts/ensure-chromium.sh
	cd $(PLUGIN) && $(NPM) run bench

# Runs the tools on a copy of the demo vault and prints what changed.
demo: build
	@bash testdata/demo/run.sh $(BIN)

# Every tool on both engines on generated vaults of 1k, 10k, 50k and 100k
# notes (kept in .work/bench-vaults, made again only when the generator
# or its seed changes), the whole-process CLI, search and recall right
# after a write, 20 calls in one process, the bare durable write beside
# update_phase, then the packages' own benchmarks; the output goes to
# $(BENCH_OUT) and its tables are printed (a benchmark that fails is
# listed, the others still run). `make bench-doc` puts them in
# docs/PERFORMANCE.md. The 50k vault and the CLI run fewer times
# (BENCH_COUNT_SLOW), the 100k once.
BENCH_OUT        := .work/bench.out
BENCH_COUNT      ?= 5
BENCH_COUNT_SLOW ?= 3
BENCH_TIME       ?= 300ms
BENCH_GO         := $(GO) test -run "^$$" -timeout 60m -benchtime $(BENCH_TIME)

bench: $(BIN)
	bash scripts/ensure-debian.sh rg ripgrep
	@mkdir -p .work
	@echo "loadavg: $$(cat /proc/loadavg 2>/dev/null)" > $(BENCH_OUT)
	-bash -o pipefail -c '$(BENCH_GO) -bench "Tools/(1k|10k)/" -count $(BENCH_COUNT) ./host/internal/toolbench | tee -a $(BENCH_OUT)'
	-bash -o pipefail -c '$(BENCH_GO) -bench "Tools/50k/" -count $(BENCH_COUNT_SLOW) ./host/internal/toolbench | tee -a $(BENCH_OUT)'
	-bash -o pipefail -c '$(BENCH_GO) -bench "CLI/" -count $(BENCH_COUNT_SLOW) ./host/internal/toolbench | tee -a $(BENCH_OUT)'
	-bash -o pipefail -c '$(BENCH_GO) -bench "Tools/100k/" -count 1 ./host/internal/toolbench | tee -a $(BENCH_OUT)'
	-bash -o pipefail -c '$(BENCH_GO) -bench "Search/" -count $(BENCH_COUNT_SLOW) ./host/internal/toolbench | tee -a $(BENCH_OUT)'
	-bash -o pipefail -c '$(BENCH_GO) -bench "AfterWrite/" -benchtime 20x -count 1 ./host/internal/toolbench | tee -a $(BENCH_OUT)'
	-bash -o pipefail -c '$(BENCH_GO) -bench "Repeated/" -benchtime 1x -count 1 ./host/internal/toolbench | tee -a $(BENCH_OUT)'
	-bash -o pipefail -c '$(BENCH_GO) -bench "DurableWrite" -benchtime 1000x -count 1 ./host/internal/toolbench | tee -a $(BENCH_OUT)'
	-bash -o pipefail -c '$(GO) test -run "^$$" -bench . -benchmem -count $(BENCH_COUNT) ./core/... ./host/engine ./host/mcp ./host/internal/conformance | tee -a $(BENCH_OUT)'
	@echo "loadavg: $$(cat /proc/loadavg 2>/dev/null)" >> $(BENCH_OUT)
	$(GO) run ./host/cmd/benchreport < $(BENCH_OUT)
	@! grep -q '^--- FAIL' $(BENCH_OUT) || { echo "make bench: some benchmarks failed (listed above)"; exit 1; }

# The tables of the last `make bench` into docs/PERFORMANCE.md (between
# its benchreport markers).
bench-doc:
	$(GO) run ./host/cmd/benchreport -update docs/PERFORMANCE.md < $(BENCH_OUT)

# The retrieval benchmark (how well mem_search finds what a need asks
# for, against three baselines): testdata/recall/README.md.
# bench-recall prints the figures (not part of make test); recall-vault
# replays testdata/recall/script.txt through Kessho's tools.
bench-recall:
	$(GO) run ./host/cmd/benchrecall

recall-vault:
	$(GO) run ./host/cmd/benchrecall -make-vault

docs:
	$(GO) run ./host/cmd/docgen > docs/reference.md

# The plugin's types of core/wire's messages (plugin-shim/src/wire.gen.ts)
# and the Go codec's golden fixtures its tests read (testdata/wire), made
# again from the Go types: host/internal/tsgen's tests fail when stale.
wire-ts:
	$(GO) run ./host/cmd/tsgen -o $(PLUGIN)/src/wire.gen.ts
	$(GO) test -count=1 -run TestFixtures ./host/internal/tsgen -update

fuzz:
	$(GO) test -run '^$$' -fuzz FuzzSet -fuzztime 60s ./core/frontmatter

clean:
	rm -rf bin $(WASM) $(BENCH_OUT)
	rm -rf $(PLUGIN)/main.js $(PLUGIN)/node_modules $(PLUGIN)/.test-build $(PLUGIN)/.cache $(PLUGIN)/src/generated
