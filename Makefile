# baton: a language server and linter for the Markdown agents hand each other.
GO ?= go
BIN := bin/baton
# What baton reports as its version and commit (baton version, SARIF, the
# server): git describe of this checkout. Outside a checkout nothing is
# linked, and baton reports the module version the go command recorded.
VERSION ?= $(shell ./scripts/version.sh)
COMMIT ?= $(shell ./scripts/version.sh --commit)
LDFLAGS := $(if $(VERSION),-X main.version=$(VERSION)) $(if $(COMMIT),-X main.commit=$(COMMIT))

.PHONY: build install demo test unit reliability e2e-setup docs vet fuzz goldmark-next soak stress bench realworld vsix release clean

# Without cgo, as the release builds: a static binary, and an editor's
# language server does not map the C library (1.2 MB of its resident set).
build:
	CGO_ENABLED=0 $(GO) build -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/baton

# Puts bin/baton on PATH for the hooks and the editors: PREFIX/bin/baton
# (PREFIX=/usr/local with sudo for every user).
PREFIX ?= $(HOME)/.local
install: build
	install -d '$(PREFIX)/bin'
	install -m 0755 $(BIN) '$(PREFIX)/bin/baton'
	@case ":$$PATH:" in *':$(PREFIX)/bin:'*) ;; *) echo 'baton: $(PREFIX)/bin is not on PATH: add it (export PATH="$(PREFIX)/bin:$$PATH")';; esac

# Runs baton on its bundled examples. baton exits 1 because the bad examples
# hold error findings; the demo is about the output, so that is not a failure.
demo: build
	@echo '$$ baton check --state-dir examples/clio-state examples/'
	@./$(BIN) check --state-dir examples/clio-state examples/ || [ $$? -eq 1 ]

# The release tooling's own tests (scripts/releasecheck builds stand-in
# binaries for six platforms; scripts/actiontest runs scripts/release.sh and
# the GitHub Action against it): minutes, so they run with `make release`,
# which checks what they check, and in CI, not in the loop of a change.
RELEASE_TESTS := ./scripts/...

# The whole suite: unit, fixture, server, CLI and editor (e2e) tests. The
# editor and host tests and the reliability suite build the binary
# themselves (go build), which go test's cache cannot see: they always run,
# or a change to baton would be passed by an earlier run's cached result.
test: e2e-setup
	@test -z "$$(gofmt -l .)" || { echo 'gofmt would change:'; gofmt -l .; exit 1; }
	$(GO) vet ./...
	$(GO) test -race $$($(GO) list ./... | grep -v -e /reliability -e /scripts/ -e /e2e)
	$(GO) test -race -count=1 ./e2e/...
	$(GO) test -race -count=1 ./reliability/

# The Go tests without the editors, the release tooling and the
# reliability suite (no e2e setup, no root): the loop a change is made in,
# where go test's cache reruns only what the change touched, and for
# machines that cannot install Neovim, Emacs, Helix or VS Code. Without the
# race detector, which doubles a cold first run (238 s against 130 s on a
# fresh clone, 2 cores): `make test`, which CI runs, has it, and RACE=-race
# adds it here. The reliability suite runs the binary it builds, which the
# cache cannot see: `make reliability` (and `make test`) run it every time.
RACE ?=
unit:
	@test -z "$$(gofmt -l .)" || { echo 'gofmt would change:'; gofmt -l .; exit 1; }
	$(GO) vet ./...
	$(GO) test $(RACE) $$($(GO) list ./... | grep -v -e /e2e -e /scripts/ -e /reliability)

# Hostile inputs against the real binary, bounded in time and memory
# (docs/reliability.md); `make stress` at full size.
reliability:
	$(GO) test -race -count=1 ./reliability/

e2e-setup:
	@./e2e/setup.sh

# The generated documents: the rules reference, the man page and the
# configuration's JSON Schema (tests fail when one is stale).
docs:
	$(GO) run ./cmd/baton explain --markdown > docs/rules.md
	$(GO) run ./cmd/baton man > docs/baton.1
	$(GO) run ./cmd/baton config schema > docs/baton.schema.json

FUZZTIME ?= 20s
# Every fuzz target of the module, each for FUZZTIME (scripts/fuzz.sh).
fuzz:
	GO=$(GO) FUZZTIME=$(FUZZTIME) ./scripts/fuzz.sh
	$(GO) test ./server/ -run '^TestAbuse' -count=1

# The goldmark speed-ups' tests (tree comparisons, copied tables) against
# goldmark's newest release (or GOLDMARK=vX.Y.Z), on a copy of go.mod: run it
# before upgrading goldmark (scripts/goldmark-next.sh).
GOLDMARK ?= latest
goldmark-next:
	GO=$(GO) GOLDMARK=$(GOLDMARK) ./scripts/goldmark-next.sh

# The reliability suite at the sizes its cases were found at (make test
# runs it small): a 1 GiB ledger line and transcript, 50 MB and 100 MB
# documents, 100,000 nested list items, 10 MB of front matter, a ledger of
# 200,000 paths. Each case is bounded in time and memory.
stress:
	BATON_STRESS=1 $(GO) test ./reliability/ -count=1 -v -timeout 60m
	BATON_STRESS=1 $(GO) test ./agenthost/claude/ -run 'TestHookLargeTranscript|TestHookFailsOpen' -count=1 -v

# The race-detector soak: 8 clients editing and requesting concurrently.
SOAKTIME ?= 2m
soak:
	$(GO) test -race ./server/ -run '^TestSoak$$' -count=1 -v -timeout 30m -soak $(SOAKTIME)

# Benchmarks and side-by-side scripts; docs/performance.md records the figures.
bench: build
	$(GO) test ./bench/ -run '^$$' -bench 'KindRatio|DetectKind|LintToParseRatio|Retained|LedgerAppendBytes' -benchtime 5x
	$(GO) test ./handoff/session/ -run '^$$' -bench . -benchtime 3x
	$(GO) test ./analysis/packet/ ./analysis/workflow/ ./handoff/ -run '^$$' -bench 'Build|Analyze|BundleLookup' -benchtime 10x -benchmem
	./bench/compare.sh
	$(GO) run ./bench/cmd/latency -baton $(BIN)
	$(GO) run ./bench/cmd/memory -baton $(BIN) -settle 10s
	$(GO) build -o bin/floor ./bench/cmd/floor
	$(GO) run ./bench/cmd/peak -baton $(BIN) -floor bin/floor

# baton over real repositories (not in the project, so not in `make test`):
# files per kind and findings per rule and severity for each tree.
#   make realworld TREES="../specrew ../executable.md" [REALWORLD_FLAGS="-list -hidden"]
realworld: build
	@test -n "$(TREES)" || { echo 'make realworld TREES="PATH…" (upstream trees, checked out anywhere)'; exit 2; }
	$(GO) run ./bench/cmd/realworld -baton $(BIN) $(REALWORLD_FLAGS) $(TREES)

# The VS Code extension package for this machine, bundling its baton
# (editors/vscode/baton-<target>-<version>.vsix; TARGET=win32-arm64 for another).
vsix:
	GO=$(GO) VERSION=$(VERSION) COMMIT=$(COMMIT) ./editors/vscode/build.sh

# Every release artifact in bin/release/, then checked: archives for linux,
# darwin and windows on amd64 and arm64, a VS Code package per platform, and
# SHA256SUMS (scripts/release.sh); first the release tooling's own tests.
release:
	$(GO) test $(RELEASE_TESTS)
	GO=$(GO) VERSION=$(VERSION) COMMIT=$(COMMIT) ./scripts/release.sh

clean:
	rm -rf bin
