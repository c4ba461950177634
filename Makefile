# TRIAGE build. Every tool is pinned in go.mod and run with `go tool`.
GO      ?= go
BENCH   ?= .
COUNT   ?= 6
PKGS    ?= ./...
BIN     := bin/triage

.PHONY: all demo generate lint check-generated test bench build serve fuzz breaking clean

all: test build

## demo: the main job — the α sweep on the bundled synthetic sample, zero configuration
demo:
	$(GO) run ./cmd/triage demo

## generate: regenerate gen/ from proto/
generate:
	$(GO) tool buf generate

## lint: buf lint, buf format check, gofmt and go vet
lint:
	$(GO) tool buf lint
	$(GO) tool buf format --diff --exit-code
	@unformatted=$$(gofmt -l $$(git ls-files '*.go') 2>/dev/null); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...

## check-generated: fail if gen/ differs from what `make generate` produces
check-generated:
	@tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	$(GO) tool buf generate --output "$$tmp" && \
	diff -r gen "$$tmp/gen" || { echo "gen/ is stale: run 'make generate' and commit"; exit 1; }

## test: lint, generated-code check and the race-enabled test suite
test: lint check-generated
	$(GO) test -race -count=1 $(PKGS)

## bench: run benchmarks COUNT times and summarize medians with benchstat
bench:
	@mkdir -p bin
	$(GO) test -run '^$$' -bench '$(BENCH)' -benchmem -count $(COUNT) $(PKGS) | tee bin/bench.txt
	$(GO) tool benchstat bin/bench.txt

## fuzz: run each fuzz target for FUZZTIME (default 20s)
FUZZTIME ?= 20s
FUZZ_TARGETS := \
	FuzzValidateComputeReferences:./services/oracle/ \
	FuzzScoreInput:./internal/runs/scoring/ \
	FuzzLine:./internal/store/gtfile/ \
	FuzzNormalizeAndRun:./internal/protocol/execution/ \
	FuzzRepair:./internal/planning/repair/ \
	FuzzGraders:./internal/phase0/grading/
fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
	  name=$${t%%:*}; pkg=$${t#*:}; \
	  echo "fuzz $$name ($$pkg)"; \
	  $(GO) test -run '^$$' -fuzz "^$$name$$" -fuzztime $(FUZZTIME) $$pkg; \
	done

## breaking: check proto/ for breaking changes against main
breaking:
	$(GO) tool buf breaking --against '.git#branch=main'

## build: build the triage binary into bin/
build:
	$(GO) build -o $(BIN) ./cmd/triage

## serve: build and run all services on the default address
serve: build
	./$(BIN) serve

clean:
	rm -rf bin triage-demo
