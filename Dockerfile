# syntax=docker/dockerfile:1
#
# TRIAGE images, one build for both:
#
#   docker build -t triage .                             # Oracle, Planner, `triage run` workers
#   docker build --target executor -t triage-executor .  # Executor: adds python3 and bubblewrap
#
# The same `go build` commands run in deploy/'s tests (no Docker engine there);
# see deploy/README.md.

# golang:1.26 on Debian 13, the release the Executor image is built on.
FROM golang:1.26-trixie AS build
WORKDIR /src
# A static binary: modernc.org/sqlite is pure Go, so nothing needs cgo.
ENV CGO_ENABLED=0
COPY . .
# -trimpath keeps the build machine's paths out of the binary; -s -w drop
# the symbol table and DWARF (panics still print file:line). `triage version`
# reads the module's build info; .dockerignore leaves .git out, so an image's
# binary reports (devel) and no revision unless built from a module version.
RUN --mount=type=cache,target=/go/pkg/mod \
    --mount=type=cache,target=/root/.cache/go-build \
    go build -trimpath -ldflags='-s -w' -o /out/triage ./cmd/triage
# grpc_health_probe, pinned (version and checksum) by deploy/go.mod's tool
# directive: Compose's health checks run it, since triage has no probe
# command and the images have no shell.
RUN --mount=type=cache,target=/go/pkg/mod \
    --mount=type=cache,target=/root/.cache/go-build \
    cd deploy && go build -trimpath -ldflags='-s -w' -o /out/grpc_health_probe github.com/grpc-ecosystem/grpc-health-probe

# The Executor: Debian's python3 (the full standard library the sandbox's
# harness needs, not python3-minimal) and bubblewrap (bwrap, run
# unprivileged: it needs no setuid bit, only user namespaces — see deploy/README.md,
# "What the Executor's sandbox needs"). ca-certificates for HTTPS model
# endpoints in Phase 0.
FROM debian:trixie-slim AS executor
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 bubblewrap ca-certificates \
 && rm -rf /var/lib/apt/lists/*
# The same uid as distroless's nonroot, so one securityContext fits both.
RUN useradd --system --user-group --uid 65532 --no-create-home \
      --home-dir /nonexistent --shell /usr/sbin/nologin triage
COPY --from=build /out/triage /out/grpc_health_probe /usr/local/bin/
USER 65532:65532
# The default SQLite files (when no postgres:// store is given) go here.
WORKDIR /tmp
EXPOSE 50051
ENTRYPOINT ["/usr/local/bin/triage"]
# Compose and the manifests give the whole command line (TLS, tokens, store).
CMD ["help"]

# Oracle, Planner and workers: the static binary on distroless (CA
# certificates, tzdata, /etc/passwd with nonroot = 65532; no shell, no
# package manager). The last stage is the default target.
FROM gcr.io/distroless/static-debian13:nonroot AS service
COPY --from=build /out/triage /out/grpc_health_probe /usr/local/bin/
USER 65532:65532
WORKDIR /tmp
EXPOSE 50051
ENTRYPOINT ["/usr/local/bin/triage"]
CMD ["help"]
