# TRIAGE build. Every tool is pinned in go.mod and run with `go tool`.
GO      ?= go
BENCH   ?= .
COUNT   ?= 6
PKGS    ?= ./...
# go test's per-package timeout: only a hang may end a test (the cli
# package's end-to-end tests take over 10 min, go test's default, on a
# loaded machine)
TEST_TIMEOUT ?= 60m
BIN     := bin/triage
# The Go toolchain is the one go.mod's toolchain line names (go1.26.10: the
# security fixes to net/http, crypto/tls, crypto/x509 and html/template that
# govulncheck reports in go1.26.8); the go command fetches it once through
# the module proxy when the machine's own Go is older.
export GOTOOLCHAIN := auto
# golangci-lint, govulncheck and the vulnerability database's indexer are
# pinned in tools/go.mod, a module of their own so that their dependencies
# stay out of the service's build list.
TOOL    := $(GO) tool -modfile=tools/go.mod
# govulncheck reads the Go vulnerability database offline: the snapshot of
# golang.org/x/vulndb pinned in tools/go.mod, indexed into VULNDB.
VULNDB  := bin/vulndb

.PHONY: all demo generate generate-clients clients-deps lint check-generated check-clients check test test-deploy bench build serve fuzz breaking load clean

all: test build

# BUILDVCS stamps the binary with its VCS revision (SPEC §10: every response,
# stored result and report carries it) when git can read this checkout, and
# leaves it unstamped otherwise: `go run` never stamps unless told to, and the
# go command's own -buildvcs=auto fails the build in a checkout git refuses to
# read (files of another user, as in a container's mounted volume).
BUILDVCS = $(shell git rev-parse --is-inside-work-tree >/dev/null 2>&1 && echo true || echo false)

## demo: the main job — the α sweep on the bundled synthetic sample, zero configuration
demo:
	$(GO) run -buildvcs=$(BUILDVCS) ./cmd/triage demo

## generate: regenerate gen/ (Go, gRPC, grpc-gateway) and api/openapi/ from proto/
generate:
	$(GO) tool buf generate

## lint: buf lint, buf format check (not of the verbatim third_party/ copies), gofmt,
## go vet, golangci-lint (.golangci.yml) and govulncheck
lint: $(VULNDB)/index/db.json
	$(GO) tool buf lint
	$(GO) tool buf format --diff --exit-code --exclude-path third_party
	@unformatted=$$(gofmt -l $$(git ls-files '*.go') 2>/dev/null); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(TOOL) golangci-lint run ./...
	$(TOOL) govulncheck -db file://$(abspath $(VULNDB)) ./...

# The offline vulnerability database, rebuilt when tools/go.mod pins another
# snapshot of golang.org/x/vulndb (its OSV files, indexed by its own indexdb).
$(VULNDB)/index/db.json: tools/go.mod tools/go.sum
	@rm -rf $(VULNDB) && mkdir -p bin
	$(GO) mod download -modfile=tools/go.mod golang.org/x/vulndb
	$(TOOL) indexdb -out $(VULNDB) -vulns "$$($(GO) list -modfile=tools/go.mod -m -f '{{.Dir}}' golang.org/x/vulndb)/data/osv"

## check-generated: fail if gen/ or api/openapi/ differs from what `make generate`
## produces (api/openapi's Go file, which embeds the document, is not generated)
check-generated:
	@tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	$(GO) tool buf generate --output "$$tmp" && \
	diff -r gen "$$tmp/gen" && diff -r -x '*.go' api/openapi "$$tmp/api/openapi" || \
	{ echo "gen/ or api/openapi/ is stale: run 'make generate' and commit"; exit 1; }

## clients-deps: the TypeScript client's pinned npm packages (npm ci, which
## also builds it) and examples/node's link to it; reinstalled when a lock changes
TS_CLIENT := clients/typescript
NODE_EXAMPLE := examples/node
clients-deps: $(TS_CLIENT)/node_modules/.package-lock.json $(NODE_EXAMPLE)/node_modules/.package-lock.json
	cd $(TS_CLIENT) && npm run --silent build

$(TS_CLIENT)/node_modules/.package-lock.json: $(TS_CLIENT)/package.json $(TS_CLIENT)/package-lock.json
	cd $(TS_CLIENT) && npm ci --no-audit --no-fund

$(NODE_EXAMPLE)/node_modules/.package-lock.json: $(NODE_EXAMPLE)/package.json $(NODE_EXAMPLE)/package-lock.json
	cd $(NODE_EXAMPLE) && npm ci --no-audit --no-fund

## generate-clients: regenerate the Python and TypeScript stubs (buf.gen.clients.yaml)
generate-clients: clients-deps
	$(GO) tool buf generate --template buf.gen.clients.yaml
	cd $(TS_CLIENT) && npm run --silent build

## check-clients: fail if the committed client stubs differ from what
## `make generate-clients` produces (protoc must be Debian bookworm's 3.21.12),
## then run the clients' own tests (clients/python/tests on Debian's
## python3-grpcio, clients/typescript/test with node --test)
CLIENT_GEN := clients/python/triage clients/python/google $(TS_CLIENT)/src/gen
PROTOC_VERSION := libprotoc 3.21.12
CLIENT_PYTHON ?= /usr/bin/python3
check-clients: clients-deps
	@v=$$(protoc --version 2>&1); [ "$$v" = "$(PROTOC_VERSION)" ] || \
	{ echo "the Python stubs are generated with protoc $(PROTOC_VERSION) (apt-get install protobuf-compiler protobuf-compiler-grpc); found: $$v"; exit 1; }
	@tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	$(GO) tool buf generate --template buf.gen.clients.yaml --output "$$tmp" || exit 1; \
	stale=0; for d in $(CLIENT_GEN); do diff -r -x __pycache__ "$$d" "$$tmp/$$d" || stale=1; done; \
	[ $$stale = 0 ] || { echo "client stubs are stale: run 'make generate-clients' and commit"; exit 1; }
	cd clients/python && $(CLIENT_PYTHON) -m unittest discover -s tests
	cd $(TS_CLIENT) && npm test --silent

## check: the everyday check — lint and the race-enabled Go tests, needing
## neither Node.js, protoc nor Chromium: the tests that run them (report.html
## in a browser, the client examples, the README's curl examples) skip
## (internal/platform/externaltest)
check: lint
	TRIAGE_TEST_REQUIRE_CHROMIUM=0 TRIAGE_TEST_REQUIRE_EXAMPLES=0 $(GO) test -race -count=1 -timeout $(TEST_TIMEOUT) $(PKGS)

## test: the full run — lint, generated-code checks (Go and the clients'
## stubs: protoc, npm), the race-enabled test suite with every test that
## can run here, and the deployment checks
test: lint check-generated check-clients test-deploy
	$(GO) test -race -count=1 -timeout $(TEST_TIMEOUT) $(PKGS)

## test-deploy: check the Dockerfile, compose.yaml and Kubernetes manifests offline
## (deploy/ is a module of its own, so the main module's ./... never includes it)
test-deploy:
	cd deploy && $(GO) vet ./... && $(GO) test -count=1 -timeout $(TEST_TIMEOUT) ./...

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
	FuzzGraders:./internal/phase0/grading/ \
	FuzzDescribeDecodeError:./internal/platform/gateway/ \
	FuzzUnmarshal:./internal/platform/wiredecode/
fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
	  name=$${t%%:*}; pkg=$${t#*:}; \
	  echo "fuzz $$name ($$pkg)"; \
	  $(GO) test -run '^$$' -fuzz "^$$name$$" -fuzztime $(FUZZTIME) $$pkg; \
	done

## breaking: check the API (proto/; the vendored googleapis files are ignored, see
## buf.yaml) for breaking changes against main
breaking:
	$(GO) tool buf breaking --against '.git#branch=main'

## build: build the triage binary into bin/, stamped with its VCS revision
## when built from a git clone git can read (BUILDVCS; it overrides a GOFLAGS
## that turns stamping off; triage version reads it)
build:
	$(GO) build -buildvcs=$(BUILDVCS) -o $(BIN) ./cmd/triage

## load: ghz (pinned) on LOAD_SERVICE's paper call (oracle: ComputeReferences;
## scoring: ScorePlan) against triage serve, plaintext versus TLS with tokens,
## alternating LOAD_RUNS runs of LOAD_DURATION each; prints throughput,
## errors, latencies and the server's RSS (scripts/load)
LOAD_SERVICE     ?= oracle
LOAD_DURATION    ?= 60s
LOAD_RUNS        ?= 2
LOAD_CONCURRENCY ?= 50
load: build
	$(GO) run ./scripts/load -service $(LOAD_SERVICE) -bin $(BIN) -duration $(LOAD_DURATION) -runs $(LOAD_RUNS) -concurrency $(LOAD_CONCURRENCY)

## serve: build and run all services on the default address
serve: build
	./$(BIN) serve --http-listen 127.0.0.1:8080

clean:
	rm -rf bin triage-demo
