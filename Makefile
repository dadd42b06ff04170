# sentinel's build. `make self` is the quick start's first command, `make test` its second.
GO      ?= go
BIN     ?= bin/sentinel
ENGINE  ?= $(dir $(BIN))sentinel-engine
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT  ?= $(shell git rev-parse HEAD 2>/dev/null)
LDFLAGS := -s -w -X main.version=$(VERSION) -X main.commit=$(COMMIT)
# urfave/cli's man-page generator costs every run start-up time and no feature;
# netgo and osusergo keep libc's resolver and user lookup out of the static link.
TAGS    := urfave_cli_no_docs netgo osusergo
# A static link spares every hook run the dynamic loader and its relocations of
# the grammars' tables (about 0.4 ms); where libc.a is missing, the build falls
# back to a dynamic link.
STATIC  := -linkmode external -extldflags -static
# The fixtures module holds deliberately broken samples; gofmt leaves it alone.
GOFILES  = $(shell find . -name '*.go' -not -path './fixtures/*')

# cgo compiles the grammars on the first build (minutes, silently); say so
# when one of them is not in Go's build cache yet, or when go list cannot tell.
GRAMMARS_NOTE = @if [ -n "$$($(GO) list -trimpath -tags '$(TAGS)' -deps \
	-f '{{if and .CgoFiles .Stale (not .Standard)}}x{{end}}' ./cmd/sentinel 2>/dev/null || echo x)" ]; then \
	echo "compiling the tree-sitter grammars: a few minutes the first time"; fi

.PHONY: FORCE build install test bwrap live lint tidy-check vet vet-front staticcheck deadcode fmt fmt-check bench fuzz self chaos

# Two binaries, installed side by side: sentinel, the front, links no C and
# runs the hooks that must start fast (commit-msg, the agents' guard); it hands
# every command that counts tests to sentinel-engine, which links the grammars.
# Built alone (go install ./cmd/sentinel), the engine is a whole sentinel too.
build: $(BIN) $(ENGINE)

$(BIN): FORCE
	CGO_ENABLED=0 $(GO) build -trimpath -tags '$(TAGS) sentinel_front' -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/sentinel

# The packages still to compile, for the progress of the first build.
STALE = $$($(GO) list -trimpath -tags '$(TAGS)' -deps -f '{{if and .Stale (not .Standard)}}x{{end}}' ./cmd/sentinel 2>/dev/null | grep -c x || echo -)

$(ENGINE): FORCE
	$(GRAMMARS_NOTE)
	@stale=$(STALE); \
	scripts/build-progress "$$stale" $(GO) build -v -trimpath -tags '$(TAGS)' -ldflags '$(LDFLAGS) $(STATIC)' -o $(ENGINE) ./cmd/sentinel 2>/dev/null || \
	scripts/build-progress - $(GO) build -v -trimpath -tags '$(TAGS)' -ldflags '$(LDFLAGS)' -o $(ENGINE) ./cmd/sentinel

install: build
	@dest=$$($(GO) env GOBIN); [ -n "$$dest" ] || dest=$$($(GO) env GOPATH)/bin; mkdir -p "$$dest" && \
	install -m 0755 $(ENGINE) "$$dest/sentinel-engine" && install -m 0755 $(BIN) "$$dest/sentinel" && \
	echo "installed sentinel and sentinel-engine in $$dest"

FORCE:

# The accuracy checks build and run real projects with their own runners
# (pytest, javac and JUnit, g++ and GoogleTest): the coverage package alone can
# pass go test's default ten minutes on a busy 2-core machine.
test: lint fmt-check bwrap
	$(GO) test -timeout 45m ./...
	# The front links no grammar: its hand-off of code to the engine is
	# tested in its own build.
	CGO_ENABLED=0 $(GO) test -tags 'urfave_cli_no_docs sentinel_front' -run '^TestHandleFront' ./guard/
	@$(MAKE) --no-print-directory live

# sentinel run's end-to-end tests need bubblewrap, which sentinel looks up
# by absolute path only: installed here when missing and we are root on a
# Debian machine; otherwise its tests skip and say why.
bwrap:
	@if [ ! -x /usr/bin/bwrap ] && [ ! -x /bin/bwrap ]; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			{ timeout 300 apt-get update -q && timeout 300 apt-get install -y -q bubblewrap; } >/dev/null 2>&1 || \
				echo "bubblewrap not installed (apt-get failed): the sentinel run tests skip"; \
		else \
			echo "bubblewrap is not installed: the sentinel run tests skip; install it: sudo apt-get install bubblewrap"; \
		fi; \
	fi

# The real agent hosts against the guard (live/): their CLIs, pinned in
# live/npm/package-lock.json, are installed once with npm ci into
# $(LIVE_CACHE) and talk to a fake model on loopback. Without npm, or when
# the registry cannot be reached, the tests skip and say so; in go test
# ./... they skip unless SENTINEL_LIVE=1.
LIVE_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/sentinel-live
live:
	@mkdir -p bin; offline=; \
	if ! command -v npm >/dev/null 2>&1; then \
		echo "live: npm is not installed: the live tests of the agent hosts skip"; offline=1; \
	elif ! timeout 30 npm ping >/dev/null 2>&1; then \
		echo "live: the npm registry cannot be reached: the hosts come from $(LIVE_CACHE) or their tests skip"; offline=1; \
	fi; \
	SENTINEL_LIVE=1 SENTINEL_LIVE_OFFLINE=$$offline SENTINEL_LIVE_CACHE='$(LIVE_CACHE)' \
		$(GO) test -count=1 -timeout 15m -parallel 3 -v -run '^TestLive' ./live/ >bin/live.log 2>&1; s=$$?; \
	grep -E '^(=== RUN|--- |ok|FAIL|PASS)|^ +--- |SKIP|: (refused|ran|all phases)' bin/live.log | cut -c1-240; \
	[ $$s -eq 0 ] || echo "live: the whole log is in bin/live.log"; exit $$s

# The hygiene gate, at zero findings: go.mod and go.sum tidy, go vet over
# both binaries' builds, staticcheck and deadcode. The linters are pinned
# and go install builds them from the Go module proxy into bin/tools, one
# directory per version, so a bump takes effect on the next run.
STATICCHECK_VERSION := v0.8.2
DEADCODE_VERSION    := v0.48.0
TOOLS       := $(CURDIR)/bin/tools
STATICCHECK := $(TOOLS)/staticcheck-$(STATICCHECK_VERSION)/staticcheck
DEADCODE    := $(TOOLS)/deadcode-$(DEADCODE_VERSION)/deadcode
FRONT_TAGS  := $(TAGS) sentinel_front
comma := ,
empty :=
space := $(empty) $(empty)

# -k: every check runs and reports, and lint fails if any of them did.
lint:
	@$(MAKE) --no-print-directory -k tidy-check vet vet-front staticcheck deadcode

tidy-check:
	@$(GO) mod tidy -diff || { echo "go.mod or go.sum is not tidy (the diff above): run go mod tidy"; exit 1; }

vet:
	@$(GO) vet ./... || { echo "go vet: fix the findings above"; exit 1; }

# The front's own build of every package and its tests: a file only the
# engine compiles needs //go:build !sentinel_front, one only the front
# compiles //go:build sentinel_front.
vet-front:
	@$(GO) vet -tags '$(FRONT_TAGS)' ./... || \
		{ echo "go vet -tags '$(FRONT_TAGS)' (the front's build): fix the findings above"; exit 1; }

# Both builds in one run: code that only one binary uses is unused only
# when the other build does not use it either.
staticcheck: $(STATICCHECK)
	@printf 'engine: -tags=%s\nfront: -tags=%s\n' '$(subst $(space),$(comma),$(TAGS))' '$(subst $(space),$(comma),$(FRONT_TAGS))' | \
		$(STATICCHECK) -matrix ./... || \
		{ echo "staticcheck: fix the findings above (staticcheck -explain CHECK tells what a check means)"; exit 1; }

deadcode: $(DEADCODE)
	@GO='$(GO)' scripts/lint-deadcode $(DEADCODE) '$(TAGS)' '$(FRONT_TAGS)'

$(STATICCHECK):
	GOBIN=$(@D) $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

$(DEADCODE):
	GOBIN=$(@D) $(GO) install golang.org/x/tools/cmd/deadcode@$(DEADCODE_VERSION)

fmt:
	gofmt -w $(GOFILES)

fmt-check:
	@out=$$(gofmt -l $(GOFILES)); if [ -n "$$out" ]; then echo "not gofmt-formatted:"; echo "$$out"; exit 1; fi

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# Run every fuzz target in turn for FUZZTIME each (default 60s); go test
# fuzzes one target per run. FUZZ=package:Target narrows it to one.
FUZZTIME ?= 60s
FUZZ ?= trailers:FuzzParseMatchesGit trailers:FuzzAddAssistedBy languages:FuzzCount \
	guard:FuzzEvaluate guard:FuzzDecide guard/script:FuzzScriptEffects coverage:FuzzBaseline config:FuzzParse coverage/reports:FuzzParse
fuzz:
	@set -e; for t in $(FUZZ); do \
		echo "fuzz $$t for $(FUZZTIME)"; \
		$(GO) test ./$${t%%:*} -run '^$$' -fuzz "^$${t#*:}$$" -fuzztime $(FUZZTIME); \
	done

# sentinel's main job on its own repository: its own set-up and hooks, then
# its checks.
self: build
	./$(BIN) init
	./$(BIN) agent
	./$(BIN) trailers check --range HEAD
	./$(BIN) status
	./$(BIN) check --rev HEAD

# The kill and race probes of docs/reliability.md, against bin/sentinel and
# the real git: minutes, so not part of `make test`. CHAOS_N runs per
# operation and signal, CHAOS_RACES trials per race; CHAOS_SEED=0 draws a
# seed. CHAOS_OPS narrows the kill probe ("accept,pre-commit"); CHAOS_FLAGS
# passes more (-keep keeps the repositories of failed runs). Every problem,
# run by run, goes to bin/chaos.log. Exits 1 when a promise was broken.
CHAOS_N     ?= 100
CHAOS_RACES ?= 100
CHAOS_SEED  ?= 0
CHAOS_JOBS  ?= 2
CHAOS_OPS   ?=
CHAOS_FLAGS ?=
chaos: build
	$(GO) run ./internal/chaos/cmd/chaos -bin $(BIN) -n $(CHAOS_N) -races $(CHAOS_RACES) -seed $(CHAOS_SEED) \
		-jobs $(CHAOS_JOBS) -ops '$(CHAOS_OPS)' -log bin/chaos.log $(CHAOS_FLAGS)
