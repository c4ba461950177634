// Package deploy holds no code. Its tests check the deployment files
// offline, where no Docker engine or cluster is available: the Dockerfile
// (BuildKit's own parser and lint checks, its stages, its build context,
// and its build stage's commands run as written), compose.yaml (the Compose
// specification's loader and schema), and the Kubernetes manifests (every
// kustomization built with kustomize, every object decoded strictly into
// the upstream API types, then checked: probes, resources, securityContext,
// Pod Security Admission's own checks at each namespace's level, topology
// spread, selectors, autoscalers and the metric the Planner's scales on,
// NetworkPolicies evaluated for every connection, Scoring's upstreams,
// Secrets, the grid Job). With a PostgreSQL server (TRIAGE_TEST_POSTGRES_DSN)
// they also run what the manifests say: the grid Job's workers, and each
// service's command line against its own probes (and the Planner's metrics
// endpoint). deploy/README.md.
//
// It is a module of its own so that the main go.mod stays small.
package deploy
