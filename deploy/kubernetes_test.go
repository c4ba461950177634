package deploy

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

const componentLabel = "app.kubernetes.io/component"

// healthService is the grpc.health.v1 name a service answers for, by its
// component label.
var healthService = map[string]string{
	"oracle":   "triage.v1.OracleService",
	"planner":  "triage.v1.PlannerService",
	"executor": "triage.v1.ExecutorService",
	"scoring":  "triage.v1.ScoringService",
}

// sandboxExceptions is the whole list of securityContext settings beyond
// the restrictive profile that any container may have: the Executor's, for
// its bubblewrap sandbox, and only in a pod with its own user namespace
// (deploy/README.md, "What the Executor's sandbox needs").
var sandboxExceptions = struct {
	component string
	procMount corev1.ProcMountType
	seccomp   corev1.SeccompProfileType
	appArmor  corev1.AppArmorProfileType
}{"executor", corev1.UnmaskedProcMount, corev1.SeccompProfileTypeUnconfined, corev1.AppArmorProfileTypeUnconfined}

// pod is a pod template with where it comes from and the namespace it runs
// in ("" when its kustomization sets none).
type pod struct {
	where     string
	namespace string
	labels    map[string]string
	spec      *corev1.PodSpec
}

func (o *objects) pods() []pod {
	var out []pod
	for _, d := range o.deployments {
		out = append(out, pod{o.dir + ": Deployment " + d.Name, d.Namespace, d.Spec.Template.Labels, &d.Spec.Template.Spec})
	}
	for _, j := range o.jobs {
		out = append(out, pod{o.dir + ": Job " + j.Name, j.Namespace, j.Spec.Template.Labels, &j.Spec.Template.Spec})
	}
	return out
}

// TestPodSecurity checks every container against the restrictive profile
// (non-root, read-only root, no privilege escalation, no capabilities,
// RuntimeDefault seccomp), allowing the Executor's sandbox exceptions and
// nothing else, and every pod's own settings.
func TestPodSecurity(t *testing.T) {
	for _, o := range buildAll(t) {
		for _, p := range o.pods() {
			checkPodSecurity(t, p)
		}
	}
}

func checkPodSecurity(t *testing.T, p pod) {
	t.Helper()
	s, psc := p.spec, p.spec.SecurityContext
	if psc == nil {
		psc = &corev1.PodSecurityContext{}
	}
	if s.HostNetwork || s.HostPID || s.HostIPC {
		t.Errorf("%s: shares a host namespace", p.where)
	}
	if s.AutomountServiceAccountToken == nil || *s.AutomountServiceAccountToken {
		t.Errorf("%s: automountServiceAccountToken must be false (no pod calls the API)", p.where)
	}
	for _, v := range s.Volumes {
		if v.HostPath != nil {
			t.Errorf("%s: volume %s is a hostPath", p.where, v.Name)
		}
	}
	ownUserNS := s.HostUsers != nil && !*s.HostUsers
	for _, c := range append(slices.Clone(s.InitContainers), s.Containers...) {
		where := p.where + " container " + c.Name
		sc := c.SecurityContext
		if sc == nil {
			t.Errorf("%s: no securityContext", where)
			continue
		}
		if !boolOr(sc.RunAsNonRoot, psc.RunAsNonRoot) {
			t.Errorf("%s: runAsNonRoot is not true", where)
		}
		if uid := int64Or(sc.RunAsUser, psc.RunAsUser); uid != nil && *uid == 0 {
			t.Errorf("%s: runs as uid 0", where)
		}
		if sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation {
			t.Errorf("%s: allowPrivilegeEscalation must be false", where)
		}
		if sc.Privileged != nil && *sc.Privileged {
			t.Errorf("%s: privileged", where)
		}
		if sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem {
			t.Errorf("%s: readOnlyRootFilesystem must be true", where)
		}
		if sc.Capabilities == nil || !slices.Contains(sc.Capabilities.Drop, "ALL") {
			t.Errorf("%s: capabilities must drop ALL", where)
		} else if len(sc.Capabilities.Add) > 0 {
			t.Errorf("%s: adds capabilities %v", where, sc.Capabilities.Add)
		}
		if sc.SELinuxOptions != nil {
			t.Errorf("%s: sets SELinux options", where)
		}
		sandbox := p.labels[componentLabel] == sandboxExceptions.component
		excepted := func(what string, ok bool) {
			switch {
			case !sandbox:
				t.Errorf("%s: %s: only the Executor's sandbox may", where, what)
			case !ownUserNS:
				t.Errorf("%s: %s needs the pod's own user namespace (hostUsers: false)", where, what)
			case !ok:
				t.Errorf("%s: %s is not one of the sandbox's exceptions", where, what)
			}
		}
		seccomp := sc.SeccompProfile
		if seccomp == nil {
			seccomp = psc.SeccompProfile
		}
		switch {
		case seccomp == nil:
			t.Errorf("%s: no seccomp profile (want RuntimeDefault)", where)
		case seccomp.Type == corev1.SeccompProfileTypeRuntimeDefault || seccomp.Type == corev1.SeccompProfileTypeLocalhost:
		default:
			excepted("seccomp "+string(seccomp.Type), seccomp.Type == sandboxExceptions.seccomp)
		}
		aa := sc.AppArmorProfile
		if aa == nil {
			aa = psc.AppArmorProfile
		}
		if aa != nil && aa.Type != corev1.AppArmorProfileTypeRuntimeDefault && aa.Type != corev1.AppArmorProfileTypeLocalhost {
			excepted("AppArmor "+string(aa.Type), aa.Type == sandboxExceptions.appArmor)
		}
		if sc.ProcMount != nil && *sc.ProcMount != corev1.DefaultProcMount {
			excepted("procMount "+string(*sc.ProcMount), *sc.ProcMount == sandboxExceptions.procMount)
		}
		checkResources(t, where, c)
	}
}

func boolOr(a, b *bool) bool {
	if a != nil {
		return *a
	}
	return b != nil && *b
}

func int64Or(a, b *int64) *int64 {
	if a != nil {
		return a
	}
	return b
}

// checkResources wants CPU and memory requests and limits, requests within
// limits.
func checkResources(t *testing.T, where string, c corev1.Container) {
	t.Helper()
	for _, name := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		req, okReq := c.Resources.Requests[name]
		lim, okLim := c.Resources.Limits[name]
		if !okReq || !okLim {
			t.Errorf("%s: %s needs a request and a limit", where, name)
			continue
		}
		if req.Cmp(lim) > 0 {
			t.Errorf("%s: %s request %s above its limit %s", where, name, req.String(), lim.String())
		}
	}
}

// TestImages: the base names the two images, the Executor's only where the
// sandbox runs (it alone carries python3 and bubblewrap); every other
// kustomization pins them to a registry and a tag.
func TestImages(t *testing.T) {
	for dir, o := range buildAll(t) {
		for _, p := range o.pods() {
			for _, c := range p.spec.Containers {
				name, tag, _ := strings.Cut(c.Image, ":")
				if i := strings.LastIndex(c.Image, ":"); i > strings.LastIndex(c.Image, "/") {
					name, tag = c.Image[:i], c.Image[i+1:]
				}
				wantExecutor := p.labels[componentLabel] == sandboxExceptions.component
				if got := path.Base(name) == "triage-executor"; got != wantExecutor {
					t.Errorf("%s container %s: image %s; the Executor image is for the Executor alone", p.where, c.Name, c.Image)
				}
				if dir == "base" || strings.HasPrefix(dir, "base/") {
					if tag != "" || strings.Contains(name, "/") {
						t.Errorf("%s: image %s: the base names images bare, for overlays to pin", p.where, c.Image)
					}
				} else if !strings.Contains(name, "/") || tag == "" || tag == "latest" {
					t.Errorf("%s: image %s: pin a registry and a tag", p.where, c.Image)
				}
			}
		}
	}
}

// grpcPort returns the container's port named grpc.
func grpcPort(c corev1.Container) (int32, bool) {
	for _, p := range c.Ports {
		if p.Name == "grpc" {
			return p.ContainerPort, true
		}
	}
	return 0, false
}

// flagValue returns the value of --name=VALUE in args.
func flagValue(args []string, name string) (string, bool) {
	for _, a := range args {
		if v, ok := strings.CutPrefix(a, "--"+name+"="); ok {
			return v, true
		}
	}
	return "", false
}

// TestProbes: every service's Deployment has startup, readiness and
// liveness probes on grpc.health.v1 for its own service name and gRPC
// port — the kubelet's native gRPC probe while the port is plaintext, and
// grpc_health_probe over verified TLS when it serves TLS (the native probe
// cannot).
func TestProbes(t *testing.T) {
	for _, o := range buildAll(t) {
		for _, d := range o.deployments {
			where := o.dir + ": Deployment " + d.Name
			comp := d.Spec.Template.Labels[componentLabel]
			want, ok := healthService[comp]
			if !ok {
				t.Errorf("%s: component %q is none of %v", where, comp, healthService)
				continue
			}
			c := d.Spec.Template.Spec.Containers[0]
			if got, _ := flagValue(c.Args, "services"); got != comp {
				t.Errorf("%s: serves --services=%s, labelled %s", where, got, comp)
			}
			port, ok := grpcPort(c)
			if !ok {
				t.Errorf("%s: no container port named grpc", where)
				continue
			}
			if listen, _ := flagValue(c.Args, "listen"); listen != fmt.Sprintf(":%d", port) {
				t.Errorf("%s: --listen=%s, port grpc is %d", where, listen, port)
			}
			_, tls := flagValue(c.Args, "tls-cert")
			for kind, pr := range map[string]*corev1.Probe{"startup": c.StartupProbe, "readiness": c.ReadinessProbe, "liveness": c.LivenessProbe} {
				if err := checkProbe(pr, port, want, tls, d.Spec.Template.Spec, c); err != nil {
					t.Errorf("%s: %s probe: %v", where, kind, err)
				}
			}
		}
	}
}

func checkProbe(pr *corev1.Probe, port int32, service string, tls bool, spec corev1.PodSpec, c corev1.Container) error {
	switch {
	case pr == nil:
		return fmt.Errorf("missing")
	case pr.GRPC != nil:
		if tls {
			return fmt.Errorf("the kubelet's gRPC probe speaks plaintext to a port serving TLS")
		}
		if pr.GRPC.Port != port {
			return fmt.Errorf("port %d, want the grpc port %d", pr.GRPC.Port, port)
		}
		if pr.GRPC.Service == nil || *pr.GRPC.Service != service {
			return fmt.Errorf("service %v, want %s", pr.GRPC.Service, service)
		}
	case pr.Exec != nil:
		cmd := pr.Exec.Command
		if len(cmd) == 0 || path.Base(cmd[0]) != "grpc_health_probe" {
			return fmt.Errorf("exec %q: want grpc_health_probe", cmd)
		}
		if !slices.Contains(cmd, fmt.Sprintf("-addr=localhost:%d", port)) || !slices.Contains(cmd, "-service="+service) {
			return fmt.Errorf("exec %q: want -addr=localhost:%d and -service=%s", cmd, port, service)
		}
		if tls {
			ca, _ := flagValue(dashDash(cmd), "tls-ca-cert")
			if !slices.Contains(cmd, "-tls") || ca == "" {
				return fmt.Errorf("exec %q: the port serves TLS: want -tls -tls-ca-cert=FILE", cmd)
			}
			if srcs := resolveFile(spec, c, ca); len(srcs) != 1 || srcs[0].kind != "Secret" {
				return fmt.Errorf("exec %q: the CA %s is not a file of a mounted Secret", cmd, ca)
			}
		}
	default:
		return fmt.Errorf("neither gRPC nor grpc_health_probe")
	}
	return nil
}

// dashDash turns grpc_health_probe's -flag=value into --flag=value.
func dashDash(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = "-" + a
	}
	return out
}

// TestSelection: every Deployment is selected by one Service (whose target
// port is the container's) and one PodDisruptionBudget, is scaled by one
// HorizontalPodAutoscaler and leaves its replicas to it, runs as a
// ServiceAccount of its namespace (in builds that hold namespaces), and
// admits a client of the triage namespace on its grpc port through the
// NetworkPolicies; every Service and HPA has its Deployment.
func TestSelection(t *testing.T) {
	for _, o := range buildAll(t) {
		for _, d := range o.deployments {
			where := o.dir + ": Deployment " + d.Name
			tmpl := labels.Set(d.Spec.Template.Labels)
			sel, err := metav1.LabelSelectorAsSelector(d.Spec.Selector)
			if err != nil || !sel.Matches(tmpl) {
				t.Errorf("%s: its selector does not match its pods (%v)", where, err)
			}
			var svcs, headless, pdbs, hpas int
			for _, s := range o.services {
				if len(s.Spec.Selector) > 0 && labels.SelectorFromSet(s.Spec.Selector).Matches(tmpl) {
					if s.Spec.ClusterIP == corev1.ClusterIPNone {
						headless++ // its pods by name, for balancing clients
					} else {
						svcs++
					}
					for _, p := range s.Spec.Ports {
						if !targetsContainer(p.TargetPort, d.Spec.Template.Spec.Containers) {
							t.Errorf("%s: Service %s port %s targets %s, no container port", where, s.Name, p.Name, p.TargetPort.String())
						}
					}
				}
			}
			for _, p := range o.pdbs {
				s, err := metav1.LabelSelectorAsSelector(p.Spec.Selector)
				if err == nil && s.Matches(tmpl) {
					pdbs++
					if p.Spec.MaxUnavailable == nil && p.Spec.MinAvailable == nil {
						t.Errorf("%s: PodDisruptionBudget %s sets no bound", where, p.Name)
					}
				}
			}
			for _, h := range o.hpas {
				r := h.Spec.ScaleTargetRef
				if r.Kind == "Deployment" && r.APIVersion == "apps/v1" && r.Name == d.Name {
					hpas++
					if h.Spec.MinReplicas == nil || *h.Spec.MinReplicas < 2 || h.Spec.MaxReplicas < *h.Spec.MinReplicas {
						t.Errorf("%s: HPA %s: want 2 ≤ minReplicas ≤ maxReplicas (one pod may be down under the PDB)", where, h.Name)
					}
					if len(h.Spec.Metrics) == 0 {
						t.Errorf("%s: HPA %s has no metric", where, h.Name)
					}
				}
			}
			if svcs != 1 || headless > 1 || pdbs != 1 || hpas != 1 {
				t.Errorf("%s: selected by %d Services (and %d headless), %d PDBs, scaled by %d HPAs; want one each (and at most one headless)", where, svcs, headless, pdbs, hpas)
			}
			if d.Spec.Replicas != nil {
				t.Errorf("%s: sets replicas, which its HPA owns", where)
			}
			if sa := d.Spec.Template.Spec.ServiceAccountName; len(o.namespaces) > 0 && !slices.ContainsFunc(o.other, func(obj runtime.Object) bool {
				a, ok := obj.(*corev1.ServiceAccount)
				return ok && a.Name == sa && a.Namespace == d.Namespace
			}) {
				t.Errorf("%s: runs as ServiceAccount %q, which its namespace %q lacks", where, sa, d.Namespace)
			}
			port, _ := grpcPort(d.Spec.Template.Spec.Containers[0])
			if dst := podEndpoint(d.Namespace, &d.Spec.Template); !newNetView(o).admits(clientEndpoint, dst, corev1.ProtocolTCP, port) {
				t.Errorf("%s: no NetworkPolicy admits its grpc port to a client of the triage namespace", where)
			}
		}
		for _, s := range o.services {
			if !slices.ContainsFunc(o.deployments, func(d *appsv1.Deployment) bool {
				return labels.SelectorFromSet(s.Spec.Selector).Matches(labels.Set(d.Spec.Template.Labels))
			}) {
				t.Errorf("%s: Service %s selects no Deployment", o.dir, s.Name)
			}
		}
		for _, h := range o.hpas {
			if !slices.ContainsFunc(o.deployments, func(d *appsv1.Deployment) bool { return d.Name == h.Spec.ScaleTargetRef.Name }) {
				t.Errorf("%s: HPA %s targets %s %s, which does not exist", o.dir, h.Name, h.Spec.ScaleTargetRef.Kind, h.Spec.ScaleTargetRef.Name)
			}
		}
	}
}

func targetsContainer(tp intstr.IntOrString, cs []corev1.Container) bool {
	for _, c := range cs {
		for _, p := range c.Ports {
			if tp.Type == intstr.String && tp.StrVal == p.Name || tp.Type == intstr.Int && tp.IntVal == p.ContainerPort {
				return true
			}
		}
	}
	return false
}

// source is where a file in a container comes from.
type source struct {
	kind, name, key string // kind "Secret" or "ConfigMap"; "" when no volume holds the path
}

// resolveFile finds which Secret or ConfigMap key a path in container c is,
// through its volume mounts (secret, configMap and projected volumes).
func resolveFile(spec corev1.PodSpec, c corev1.Container, file string) []source {
	var out []source
	for _, m := range c.VolumeMounts {
		rel, ok := strings.CutPrefix(file, strings.TrimSuffix(m.MountPath, "/")+"/")
		if !ok {
			continue
		}
		for _, v := range spec.Volumes {
			if v.Name != m.Name {
				continue
			}
			switch {
			case v.Secret != nil:
				out = append(out, keyFor("Secret", v.Secret.SecretName, v.Secret.Items, rel)...)
			case v.ConfigMap != nil:
				out = append(out, keyFor("ConfigMap", v.ConfigMap.Name, v.ConfigMap.Items, rel)...)
			case v.Projected != nil:
				for _, s := range v.Projected.Sources {
					if s.Secret != nil {
						out = append(out, keyFor("Secret", s.Secret.Name, s.Secret.Items, rel)...)
					}
					if s.ConfigMap != nil {
						out = append(out, keyFor("ConfigMap", s.ConfigMap.Name, s.ConfigMap.Items, rel)...)
					}
				}
			}
		}
	}
	return out
}

// keyFor is the key a file name rel stands for in a Secret or ConfigMap
// volume: through its items when it lists some, else the key itself.
func keyFor(kind, name string, items []corev1.KeyToPath, rel string) []source {
	if len(items) == 0 {
		return []source{{kind, name, rel}}
	}
	for _, it := range items {
		if it.Path == rel {
			return []source{{kind, name, it.Key}}
		}
	}
	return nil
}

// TestTransport: a port serves TLS (certificate and key, from the
// triage-tls Secret) or plaintext with --insecure, and then always with
// bearer tokens; the TLS overlay serves TLS everywhere and no Service there
// claims cleartext HTTP/2.
func TestTransport(t *testing.T) {
	for _, o := range buildAll(t) {
		wantTLS := strings.HasSuffix(o.dir, "-tls")
		for _, d := range o.deployments {
			where := o.dir + ": Deployment " + d.Name
			c := d.Spec.Template.Spec.Containers[0]
			cert, tls := flagValue(c.Args, "tls-cert")
			_, key := flagValue(c.Args, "tls-key")
			insecure := slices.Contains(c.Args, "--insecure")
			_, tokens := flagValue(c.Args, "auth-tokens")
			switch {
			case tls && (insecure || !key):
				t.Errorf("%s: TLS wants --tls-key and no --insecure", where)
			case tls:
				if srcs := resolveFile(d.Spec.Template.Spec, c, cert); len(srcs) != 1 || srcs[0].name != "triage-tls" {
					t.Errorf("%s: --tls-cert=%s is not from the triage-tls Secret", where, cert)
				}
			case !insecure || !tokens:
				t.Errorf("%s: plaintext wants --insecure (it listens beyond the loopback) and --auth-tokens", where)
			}
			if tls != wantTLS {
				t.Errorf("%s: serves TLS: %v; want %v in %s", where, tls, wantTLS, o.dir)
			}
		}
		for _, s := range o.services {
			for _, p := range s.Spec.Ports {
				if p.Name != "grpc" {
					continue
				}
				if h2c := p.AppProtocol != nil && *p.AppProtocol == "kubernetes.io/h2c"; h2c == wantTLS {
					t.Errorf("%s: Service %s port %s: appProtocol %v with TLS %v", o.dir, s.Name, p.Name, p.AppProtocol, wantTLS)
				}
			}
		}
	}
}

// TestTopologySpread: every Deployment spreads its pods across nodes (a
// required constraint: at most one pod more on any node than on another)
// and across zones (a preferred one, so that a single-zone cluster still
// schedules), each counting the Deployment's own pods of its current
// ReplicaSet.
func TestTopologySpread(t *testing.T) {
	want := map[string]corev1.UnsatisfiableConstraintAction{
		corev1.LabelHostname:     corev1.DoNotSchedule,
		corev1.LabelTopologyZone: corev1.ScheduleAnyway,
	}
	for _, o := range buildAll(t) {
		for _, d := range o.deployments {
			where := o.dir + ": Deployment " + d.Name
			got := map[string]corev1.UnsatisfiableConstraintAction{}
			for _, c := range d.Spec.Template.Spec.TopologySpreadConstraints {
				got[c.TopologyKey] = c.WhenUnsatisfiable
				if c.MaxSkew != 1 {
					t.Errorf("%s: spread over %s with maxSkew %d, want 1", where, c.TopologyKey, c.MaxSkew)
				}
				sel, err := metav1.LabelSelectorAsSelector(c.LabelSelector)
				if c.LabelSelector == nil || err != nil || !sel.Matches(labels.Set(d.Spec.Template.Labels)) {
					t.Errorf("%s: spread over %s does not select its own pods (%v)", where, c.TopologyKey, err)
				} else if !sel.Matches(labels.Set(d.Spec.Selector.MatchLabels)) {
					t.Errorf("%s: spread over %s selects more than its own pods' labels", where, c.TopologyKey)
				}
				if !slices.Contains(c.MatchLabelKeys, appsv1.DefaultDeploymentUniqueLabelKey) {
					t.Errorf("%s: spread over %s without matchLabelKeys [%s]: a rollout's old pods would skew the new ones", where, c.TopologyKey, appsv1.DefaultDeploymentUniqueLabelKey)
				}
			}
			for key, action := range want {
				if got[key] != action {
					t.Errorf("%s: spread over %s: %q, want %q", where, key, got[key], action)
				}
			}
		}
	}
}
