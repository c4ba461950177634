package deploy

import (
	"fmt"
	"maps"
	"net"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// endpoint is one end of a connection: a pod (its namespace, labels and
// container ports), or an address outside the cluster when ip is set.
type endpoint struct {
	name      string
	namespace string
	labels    labels.Set
	ports     []corev1.ContainerPort
	ip        net.IP
}

// The ends the policies are checked against besides the manifests' pods.
var (
	clientEndpoint   = endpoint{name: "a client in triage", namespace: "triage", labels: labels.Set{"app": "client"}}
	strangerEndpoint = endpoint{name: "a pod in default", namespace: "default", labels: labels.Set{"app": "client"}}
	monitorEndpoint  = endpoint{name: "Prometheus", namespace: "monitoring", labels: labels.Set{"app.kubernetes.io/name": "prometheus"}}
	dnsEndpoint      = endpoint{name: "kube-dns", namespace: "kube-system", labels: labels.Set{"k8s-app": "kube-dns"}}
	// Model endpoints (443) and PostgreSQL (5432): the policies open
	// those ports to any address, and an overlay narrows the blocks.
	outsideEndpoints = []endpoint{
		{name: "outside", ip: net.ParseIP("203.0.113.10")},
		{name: "outside", ip: net.ParseIP("2001:db8::10")},
	}
)

// podEndpoint is the endpoint of a pod template running in namespace.
func podEndpoint(namespace string, tmpl *corev1.PodTemplateSpec) endpoint {
	e := endpoint{name: tmpl.Labels[componentLabel], namespace: namespace, labels: labels.Set(tmpl.Labels)}
	for _, c := range tmpl.Spec.Containers {
		e.ports = append(e.ports, c.Ports...)
	}
	return e
}

// netView evaluates NetworkPolicies as the API defines them: a pod selected
// by no policy of a direction is open that way; one selected by some is
// open only to what one of their rules admits; a connection needs both the
// source's egress and the destination's ingress. ipBlock peers match
// addresses outside the cluster only (see TestNetworkPolicyAddressBlocks
// for why that is safe here).
type netView struct {
	policies []*networkingv1.NetworkPolicy
	nsLabels map[string]labels.Set
}

func newNetView(objs ...*objects) netView {
	v := netView{nsLabels: map[string]labels.Set{}}
	for _, o := range objs {
		v.policies = append(v.policies, o.networkPolicies...)
		for _, ns := range o.namespaces {
			v.nsLabels[ns.Name] = labels.Set(ns.Labels)
		}
	}
	return v
}

// namespaceLabels are a namespace's labels, with the one the API server
// sets on every namespace.
func (v netView) namespaceLabels(ns string) labels.Set {
	l := labels.Set{"kubernetes.io/metadata.name": ns}
	maps.Copy(l, v.nsLabels[ns])
	return l
}

// allowed reports whether src may connect to dst's port.
func (v netView) allowed(src, dst endpoint, proto corev1.Protocol, port int32) bool {
	return v.open(src, dst, proto, port, networkingv1.PolicyTypeEgress) && v.admits(src, dst, proto, port)
}

// admits reports whether dst's ingress policies let src connect to port.
func (v netView) admits(src, dst endpoint, proto corev1.Protocol, port int32) bool {
	return v.open(src, dst, proto, port, networkingv1.PolicyTypeIngress)
}

func (v netView) open(src, dst endpoint, proto corev1.Protocol, port int32, dir networkingv1.PolicyType) bool {
	subject, peer := src, dst
	if dir == networkingv1.PolicyTypeIngress {
		subject, peer = dst, src
	}
	if subject.ip != nil {
		return true // outside the cluster: no policy of ours applies
	}
	isolated := false
	for _, np := range v.policies {
		if np.Namespace != subject.namespace || !matches(&np.Spec.PodSelector, subject.labels) || !slices.Contains(policyTypes(np), dir) {
			continue
		}
		isolated = true
		type rule struct {
			ports []networkingv1.NetworkPolicyPort
			peers []networkingv1.NetworkPolicyPeer
		}
		var rules []rule
		if dir == networkingv1.PolicyTypeIngress {
			for _, r := range np.Spec.Ingress {
				rules = append(rules, rule{r.Ports, r.From})
			}
		} else {
			for _, r := range np.Spec.Egress {
				rules = append(rules, rule{r.Ports, r.To})
			}
		}
		for _, r := range rules {
			if portMatches(r.ports, dst, proto, port) && v.peerMatches(r.peers, peer, np.Namespace) {
				return true
			}
		}
	}
	return !isolated
}

// policyTypes are a policy's directions, defaulted as the API does.
func policyTypes(np *networkingv1.NetworkPolicy) []networkingv1.PolicyType {
	if len(np.Spec.PolicyTypes) > 0 {
		return np.Spec.PolicyTypes
	}
	types := []networkingv1.PolicyType{networkingv1.PolicyTypeIngress}
	if len(np.Spec.Egress) > 0 {
		types = append(types, networkingv1.PolicyTypeEgress)
	}
	return types
}

func matches(sel *metav1.LabelSelector, l labels.Set) bool {
	s, err := metav1.LabelSelectorAsSelector(sel)
	return err == nil && s.Matches(l)
}

func portMatches(ports []networkingv1.NetworkPolicyPort, dst endpoint, proto corev1.Protocol, port int32) bool {
	if len(ports) == 0 {
		return true
	}
	for _, p := range ports {
		pp := corev1.ProtocolTCP
		if p.Protocol != nil {
			pp = *p.Protocol
		}
		switch {
		case pp != proto:
		case p.Port == nil:
			return true
		case p.Port.StrVal != "":
			for _, cp := range dst.ports {
				if cp.Name == p.Port.StrVal && cp.ContainerPort == port {
					return true
				}
			}
		case p.Port.IntVal == port, p.EndPort != nil && p.Port.IntVal <= port && port <= *p.EndPort:
			return true
		}
	}
	return false
}

func (v netView) peerMatches(peers []networkingv1.NetworkPolicyPeer, e endpoint, policyNamespace string) bool {
	if len(peers) == 0 {
		return true
	}
	for _, p := range peers {
		switch {
		case p.IPBlock != nil:
			if e.ip != nil && inBlock(p.IPBlock, e.ip) {
				return true
			}
		case e.ip != nil:
		case p.NamespaceSelector == nil:
			if e.namespace == policyNamespace && matches(p.PodSelector, e.labels) {
				return true
			}
		default:
			if matches(p.NamespaceSelector, v.namespaceLabels(e.namespace)) && (p.PodSelector == nil || matches(p.PodSelector, e.labels)) {
				return true
			}
		}
	}
	return false
}

func inBlock(b *networkingv1.IPBlock, ip net.IP) bool {
	_, n, err := net.ParseCIDR(b.CIDR)
	if err != nil || !n.Contains(ip) {
		return false
	}
	for _, ex := range b.Except {
		if _, x, err := net.ParseCIDR(ex); err == nil && x.Contains(ip) {
			return false
		}
	}
	return true
}

// installation is what `kubectl apply -k overlays/example` and `-k job`
// put in one cluster.
func installation(t *testing.T, all map[string]*objects) *objects {
	t.Helper()
	ex, job := all["overlays/example"], all["job"]
	if ex == nil || job == nil {
		t.Fatal("overlays/example and job must build")
	}
	return &objects{
		dir:             "overlays/example + job",
		deployments:     ex.deployments,
		jobs:            job.jobs,
		networkPolicies: append(slices.Clone(ex.networkPolicies), job.networkPolicies...),
		namespaces:      ex.namespaces,
	}
}

// networkViews are the builds that hold whole namespaces, policies and all.
func networkViews(t *testing.T) []*objects {
	all := buildAll(t)
	return []*objects{all["base"], all["overlays/example"], all["overlays/example-tls"], installation(t, all)}
}

// TestNetworkPolicyDefaultDeny: every namespace a pod runs in starts
// closed both ways (a policy selecting every pod, for ingress and egress,
// with no rule), so what is open is only what a policy opens.
func TestNetworkPolicyDefaultDeny(t *testing.T) {
	for _, o := range networkViews(t) {
		namespaces := map[string]bool{}
		for _, p := range o.pods() {
			namespaces[p.namespace] = true
		}
		for ns := range namespaces {
			if !slices.ContainsFunc(o.networkPolicies, func(np *networkingv1.NetworkPolicy) bool {
				types := policyTypes(np)
				return np.Namespace == ns && len(np.Spec.PodSelector.MatchLabels) == 0 && len(np.Spec.PodSelector.MatchExpressions) == 0 &&
					slices.Contains(types, networkingv1.PolicyTypeIngress) && slices.Contains(types, networkingv1.PolicyTypeEgress) &&
					len(np.Spec.Ingress) == 0 && len(np.Spec.Egress) == 0
			}) {
				t.Errorf("%s: namespace %q has no default-deny NetworkPolicy (podSelector {}, policyTypes [Ingress, Egress], no rules)", o.dir, ns)
			}
		}
	}
}

// TestNetworkPolicies checks every connection between the pods of an
// installation, and to DNS and addresses outside the cluster (IPv4 and
// IPv6: model endpoints, PostgreSQL), on every port
// anything here uses: exactly the calls the services make are open, every
// other is closed. Then who may reach the services from outside them.
func TestNetworkPolicies(t *testing.T) {
	type call struct {
		from, to string
		port     int32
	}
	// The calls each component makes (a destination is a component or an
	// endpoint's name).
	want := map[call]bool{}
	for _, to := range []string{"oracle", "executor"} {
		want[call{"scoring", to, 50051}] = true
	}
	for _, to := range []string{"oracle", "planner", "scoring", "executor"} {
		want[call{"grid-worker", to, 50051}] = true
	}
	for _, from := range []string{"planner", "executor", "grid-worker"} {
		want[call{from, "outside", 443}] = true  // model endpoints
		want[call{from, "outside", 5432}] = true // PostgreSQL
	}
	ports := []int32{53, 80, 443, 5432, 8080, 9464, 50051}
	for _, o := range networkViews(t) {
		v := newNetView(o)
		var pods []endpoint
		for _, d := range o.deployments {
			pods = append(pods, podEndpoint(d.Namespace, &d.Spec.Template))
		}
		for _, j := range o.jobs {
			pods = append(pods, podEndpoint(j.Namespace, &j.Spec.Template))
		}
		dsts := append(append(slices.Clone(pods), outsideEndpoints...), dnsEndpoint)
		for _, src := range pods {
			for _, proto := range []corev1.Protocol{corev1.ProtocolUDP, corev1.ProtocolTCP} {
				if !v.allowed(src, dnsEndpoint, proto, 53) {
					t.Errorf("%s: %s cannot resolve names (%s 53 to kube-dns)", o.dir, src.name, proto)
				}
			}
			for _, dst := range dsts {
				for _, port := range ports {
					if dst.name == dnsEndpoint.name && port == 53 {
						continue
					}
					got, w := v.allowed(src, dst, corev1.ProtocolTCP, port), want[call{src.name, dst.name, port}]
					if got != w {
						t.Errorf("%s: %s → %s port %d: open %v, want %v", o.dir, src.name, dst.name, port, got, w)
					}
				}
			}
		}
		for _, dst := range pods {
			grpc, _ := grpcPortOf(dst) // 0: listens on nothing (the grid's workers)
			for _, port := range ports {
				if got, w := v.admits(clientEndpoint, dst, corev1.ProtocolTCP, port), grpc != 0 && (port == grpc || port == 8080); got != w {
					t.Errorf("%s: %s → %s port %d: admitted %v, want %v", o.dir, clientEndpoint.name, dst.name, port, got, w)
				}
				if v.admits(strangerEndpoint, dst, corev1.ProtocolTCP, port) {
					t.Errorf("%s: %s admits %s on port %d", o.dir, dst.name, strangerEndpoint.name, port)
				}
				if got, w := v.admits(monitorEndpoint, dst, corev1.ProtocolTCP, port), dst.name == "planner" && port == 9464; got != w {
					t.Errorf("%s: %s → %s port %d: admitted %v, want %v", o.dir, monitorEndpoint.name, dst.name, port, got, w)
				}
			}
		}
	}
}

func grpcPortOf(e endpoint) (int32, bool) {
	for _, p := range e.ports {
		if p.Name == "grpc" {
			return p.ContainerPort, true
		}
	}
	return 0, false
}

// TestNetworkPolicyAddressBlocks: some network plugins let an ipBlock match
// pod addresses too, so every ipBlock rule names its ports, and none of
// them is a port a TRIAGE pod listens on: such a rule can never open a path
// between pods.
func TestNetworkPolicyAddressBlocks(t *testing.T) {
	for _, o := range buildAll(t) {
		listening := map[int32]bool{}
		for _, p := range o.pods() {
			for _, c := range p.spec.Containers {
				for _, cp := range c.Ports {
					listening[cp.ContainerPort] = true
				}
			}
		}
		for _, np := range o.networkPolicies {
			check := func(kind string, i int, ports []networkingv1.NetworkPolicyPort, peers []networkingv1.NetworkPolicyPeer) {
				where := fmt.Sprintf("%s: NetworkPolicy %s %s rule %d", o.dir, np.Name, kind, i)
				if !slices.ContainsFunc(peers, func(p networkingv1.NetworkPolicyPeer) bool { return p.IPBlock != nil }) {
					return
				}
				if len(ports) == 0 {
					t.Errorf("%s: an ipBlock rule for every port", where)
				}
				for _, p := range ports {
					if p.Port == nil || p.Port.StrVal != "" || p.EndPort != nil || listening[p.Port.IntVal] {
						t.Errorf("%s: ipBlock on port %v: name single ports no TRIAGE pod listens on", where, p.Port)
					}
				}
			}
			for i, r := range np.Spec.Egress {
				check("egress", i, r.Ports, r.To)
			}
			for i, r := range np.Spec.Ingress {
				check("ingress", i, r.Ports, r.From)
			}
		}
	}
}
