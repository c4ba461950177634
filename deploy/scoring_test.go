package deploy

import (
	"net"
	"slices"
	"strconv"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
)

// TestScoringService: every build of the services runs Scoring as its own
// Deployment with a Service, a PodDisruptionBudget and an autoscaler
// (TestSelection checks how they fit), calling the Oracle and the Executor
// at addresses that are Services of the build on their grpc ports, with a
// token from a Secret, over TLS verified against the CA where the services
// serve TLS; and the NetworkPolicies let those calls through.
func TestScoringService(t *testing.T) {
	for dir, o := range buildAll(t) {
		components := map[string]bool{}
		for _, d := range o.deployments {
			components[d.Spec.Template.Labels[componentLabel]] = true
		}
		if !components["oracle"] || !components["executor"] {
			continue // a part: base/services, base/sandbox, job
		}
		i := slices.IndexFunc(o.deployments, func(d *appsv1.Deployment) bool { return d.Spec.Template.Labels[componentLabel] == "scoring" })
		if i < 0 {
			t.Errorf("%s: no Scoring Deployment", dir)
			continue
		}
		d := o.deployments[i]
		where := dir + ": Deployment " + d.Name
		spec := d.Spec.Template.Spec
		c := spec.Containers[0]
		v := newNetView(o)
		src := podEndpoint(d.Namespace, &d.Spec.Template)
		for flag, comp := range map[string]string{"oracle-addr": "oracle", "executor-addr": "executor"} {
			addr, ok := flagValue(c.Args, flag)
			if !ok {
				t.Errorf("%s: no --%s", where, flag)
				continue
			}
			dst, ok := serviceAt(o, d.Namespace, addr)
			if !ok {
				t.Errorf("%s: --%s=%s is no Service port of the build", where, flag, addr)
				continue
			}
			if dst.labels[componentLabel] != comp {
				t.Errorf("%s: --%s=%s reaches %s", where, flag, addr, dst.labels[componentLabel])
			}
			// A cluster IP would pin each Scoring pod's one connection to
			// one upstream pod: its round_robin needs every pod's address.
			if host, _, _ := net.SplitHostPort(addr); !headless(o, d.Namespace, host) {
				t.Errorf("%s: --%s=%s is not a headless Service: Scoring's calls would not be balanced over its pods", where, flag, addr)
			}
			if _, port, _ := net.SplitHostPort(addr); !v.allowed(src, dst, corev1.ProtocolTCP, atoi32(port)) {
				t.Errorf("%s: the NetworkPolicies close its call to %s", where, addr)
			}
		}
		if file, ok := flagValue(c.Args, "upstream-token-file"); !ok {
			t.Errorf("%s: no --upstream-token-file (the Oracle and Executor want a token)", where)
		} else if srcs := resolveFile(spec, c, file); len(srcs) != 1 || srcs[0].kind != "Secret" {
			t.Errorf("%s: --upstream-token-file=%s is not a file of a mounted Secret", where, file)
		}
		ca, upstreamTLS := flagValue(c.Args, "upstream-ca")
		if _, tls := flagValue(c.Args, "tls-cert"); tls != upstreamTLS {
			t.Errorf("%s: serves TLS %v but calls its upstreams with TLS %v", where, tls, upstreamTLS)
		}
		if upstreamTLS {
			if srcs := resolveFile(spec, c, ca); len(srcs) != 1 || srcs[0].name != "triage-tls" || srcs[0].key != "ca.crt" {
				t.Errorf("%s: --upstream-ca=%s is not triage-tls's ca.crt", where, ca)
			}
		}
	}
}

// serviceAt resolves host:port, dialled from namespace, to the pods of the
// Deployment behind the Service of that name whose port it is.
func serviceAt(o *objects, from, addr string) (endpoint, bool) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return endpoint{}, false
	}
	name, ns := host, from
	if parts := strings.Split(host, "."); len(parts) > 1 {
		name, ns = parts[0], parts[1]
		if rest := strings.Join(parts[2:], "."); rest != "" && rest != "svc" && rest != "svc.cluster.local" {
			return endpoint{}, false
		}
	}
	for _, s := range o.services {
		if s.Name != name || s.Namespace != ns || !slices.ContainsFunc(s.Spec.Ports, func(p corev1.ServicePort) bool { return p.Port == atoi32(port) && p.Name == "grpc" }) {
			continue
		}
		for _, d := range o.deployments {
			if d.Namespace == ns && matchesSet(s.Spec.Selector, d.Spec.Template.Labels) {
				return podEndpoint(ns, &d.Spec.Template), true
			}
		}
	}
	return endpoint{}, false
}

// headless reports whether host, dialled from namespace, names a headless
// Service of the build (clusterIP None: DNS gives its pods' addresses).
func headless(o *objects, from, host string) bool {
	name, ns := host, from
	if parts := strings.Split(host, "."); len(parts) > 1 {
		name, ns = parts[0], parts[1]
	}
	return slices.ContainsFunc(o.services, func(s *corev1.Service) bool {
		return s.Name == name && s.Namespace == ns && s.Spec.ClusterIP == corev1.ClusterIPNone
	})
}

func matchesSet(sel, l map[string]string) bool {
	for k, v := range sel {
		if l[k] != v {
			return false
		}
	}
	return len(sel) > 0
}

func atoi32(s string) int32 {
	n, _ := strconv.ParseInt(s, 10, 32)
	return int32(n)
}
