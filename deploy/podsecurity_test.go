package deploy

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/pod-security-admission/api"
	"k8s.io/pod-security-admission/policy"
)

// podSecurityViews are the builds that hold the namespaces their pods run
// in.
func podSecurityViews(t *testing.T) []*objects {
	all := buildAll(t)
	return []*objects{all["base"], all["base/services"], all["base/sandbox"], all["overlays/example"], all["overlays/example-tls"], installation(t, all)}
}

// TestPodSecurityAdmission runs Pod Security Admission's own checks
// (k8s.io/pod-security-admission, the code the API server runs) on every
// pod at the level its namespace enforces, as the API server would when the
// pod is created: each must be admitted. Every namespace a pod runs in is
// built with it and enforces "restricted", but the Executor's, which holds
// the Executor alone (its sandbox's exceptions are beyond "baseline"); and
// every other pod would be admitted at "restricted" anywhere.
func TestPodSecurityAdmission(t *testing.T) {
	eval, err := policy.NewEvaluator(policy.DefaultChecks(), nil)
	if err != nil {
		t.Fatal(err)
	}
	restricted := api.LevelVersion{Level: api.LevelRestricted, Version: api.LatestVersion()}
	check := func(where string, lv api.LevelVersion, p pod) {
		t.Helper()
		meta := &metav1.ObjectMeta{Labels: p.labels}
		res := policy.AggregateCheckResults(eval.EvaluatePod(lv, meta, p.spec))
		if !res.Allowed {
			t.Errorf("%s: not admitted at %s (%s): %s", p.where, lv, where, res.ForbiddenDetail())
		}
	}
	for _, o := range podSecurityViews(t) {
		namespaces := map[string]*corev1.Namespace{}
		for _, ns := range o.namespaces {
			namespaces[ns.Name] = ns
		}
		sandboxNamespaces := map[string]bool{}
		for _, p := range o.pods() {
			if p.labels[componentLabel] == sandboxExceptions.component {
				sandboxNamespaces[p.namespace] = true
			}
		}
		for _, p := range o.pods() {
			ns := namespaces[p.namespace]
			if ns == nil {
				t.Errorf("%s: runs in namespace %q, which is not built with it", p.where, p.namespace)
				continue
			}
			pol, errs := api.PolicyToEvaluate(ns.Labels, api.Policy{Enforce: restricted})
			if len(errs) > 0 {
				t.Errorf("%s: namespace %s: %v", o.dir, ns.Name, errs.ToAggregate())
				continue
			}
			check("namespace "+ns.Name+" enforces it", pol.Enforce, p)
			sandbox := p.labels[componentLabel] == sandboxExceptions.component
			switch {
			case sandbox:
			case sandboxNamespaces[p.namespace]:
				t.Errorf("%s: runs in %s beside the Executor; that namespace is the sandbox's alone", p.where, p.namespace)
			case pol.Enforce.Level != api.LevelRestricted:
				t.Errorf("%s: namespace %s enforces %s; every namespace but the Executor's enforces restricted", p.where, ns.Name, pol.Enforce)
			default:
				check("every pod but the Executor meets it", restricted, p)
			}
		}
	}
}
