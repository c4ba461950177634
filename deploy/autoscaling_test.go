package deploy

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	sigsyaml "sigs.k8s.io/yaml"
)

// callDurationSum is the series the Planner's autoscaling metric is
// computed from: otelgrpc's rpc.server.call.duration as OpenTelemetry's
// Prometheus exporter names it. TestServeManifests scrapes it from the
// Planner started as its Deployment says.
const callDurationSum = "rpc_server_call_duration_seconds_sum"

// adapterRules is the part of prometheus-adapter's Helm values the
// Planner's autoscaler depends on.
type adapterRules struct {
	Rules struct {
		Custom []struct {
			SeriesQuery string `json:"seriesQuery"`
			Resources   struct {
				Overrides map[string]struct {
					Resource string `json:"resource"`
				} `json:"overrides"`
			} `json:"resources"`
			Name struct {
				Matches string `json:"matches"`
				As      string `json:"as"`
			} `json:"name"`
			MetricsQuery string `json:"metricsQuery"`
		} `json:"custom"`
	} `json:"rules"`
}

// podMonitor is the part of the Prometheus Operator's PodMonitor used here.
type podMonitor struct {
	Kind     string `json:"kind"`
	Metadata struct {
		Namespace string `json:"namespace"`
	} `json:"metadata"`
	Spec struct {
		Selector struct {
			MatchLabels map[string]string `json:"matchLabels"`
		} `json:"selector"`
		PodMetricsEndpoints []struct {
			Port string `json:"port"`
			Path string `json:"path"`
		} `json:"podMetricsEndpoints"`
	} `json:"spec"`
}

// TestPlannerAutoscaling: the Planner, which mostly waits on models, scales
// on a Pods or External metric and on no resource (CPU or memory); that
// metric is the one prometheus-adapter's rule (autoscaling/) makes, per pod,
// from the call-duration series the server exports; the PodMonitor scrapes
// the Planner's metrics port, where the Deployment's environment makes the
// server serve them.
func TestPlannerAutoscaling(t *testing.T) {
	var rules adapterRules
	if err := sigsyaml.Unmarshal(readRepoFile(t, manifests+"/autoscaling/prometheus-adapter.yaml"), &rules); err != nil {
		t.Fatal(err)
	}
	made := map[string]bool{} // custom metrics the adapter serves per pod
	for _, r := range rules.Rules.Custom {
		series, _, _ := strings.Cut(r.SeriesQuery, "{")
		if series != callDurationSum || !regexp.MustCompile(r.Name.Matches).MatchString(series) {
			t.Errorf("adapter rule %s: series %q, want %s", r.Name.As, series, callDurationSum)
			continue
		}
		if r.Resources.Overrides["namespace"].Resource != "namespace" || r.Resources.Overrides["pod"].Resource != "pod" {
			t.Errorf("adapter rule %s: series not tied to namespace and pod", r.Name.As)
		}
		for _, part := range []string{"rate(<<.Series>>{<<.LabelMatchers>>", "by (<<.GroupBy>>)"} {
			if !strings.Contains(r.MetricsQuery, part) {
				t.Errorf("adapter rule %s: metricsQuery %q lacks %q (a per-pod rate of the sum)", r.Name.As, r.MetricsQuery, part)
			}
		}
		made[r.Name.As] = true
	}
	var pm podMonitor
	if err := sigsyaml.Unmarshal(readRepoFile(t, manifests+"/autoscaling/podmonitor.yaml"), &pm); err != nil || pm.Kind != "PodMonitor" {
		t.Fatalf("podmonitor.yaml: %v %q", err, pm.Kind)
	}
	for _, o := range buildAll(t) {
		for _, d := range o.deployments {
			if d.Spec.Template.Labels[componentLabel] != "planner" {
				continue
			}
			where := o.dir + ": Deployment " + d.Name
			i := slices.IndexFunc(o.hpas, func(h *autoscalingv2.HorizontalPodAutoscaler) bool { return h.Spec.ScaleTargetRef.Name == d.Name })
			if i < 0 {
				t.Errorf("%s: no HPA", where)
				continue
			}
			var names []string
			for _, m := range o.hpas[i].Spec.Metrics {
				switch m.Type {
				case autoscalingv2.PodsMetricSourceType:
					names = append(names, m.Pods.Metric.Name)
				case autoscalingv2.ExternalMetricSourceType:
					names = append(names, m.External.Metric.Name)
				default:
					t.Errorf("%s: HPA scales on a %s metric; the Planner waits on models, so scale it on calls in flight", where, m.Type)
				}
			}
			if len(names) == 0 || !slices.ContainsFunc(names, func(n string) bool { return made[n] }) {
				t.Errorf("%s: HPA metrics %v: none is one prometheus-adapter.yaml makes (%v)", where, names, made)
			}
			c := d.Spec.Template.Spec.Containers[0]
			env := map[string]string{}
			for _, e := range c.Env {
				env[e.Name] = e.Value
			}
			if env["OTEL_METRICS_EXPORTER"] != "prometheus" || env["OTEL_EXPORTER_PROMETHEUS_HOST"] != "0.0.0.0" {
				t.Errorf("%s: OTEL_METRICS_EXPORTER=%q OTEL_EXPORTER_PROMETHEUS_HOST=%q: want prometheus on 0.0.0.0", where, env["OTEL_METRICS_EXPORTER"], env["OTEL_EXPORTER_PROMETHEUS_HOST"])
			}
			if !labels.SelectorFromSet(pm.Spec.Selector.MatchLabels).Matches(labels.Set(d.Spec.Template.Labels)) || pm.Metadata.Namespace != d.Namespace && d.Namespace != "" {
				t.Errorf("%s: podmonitor.yaml (namespace %s, %v) does not select its pods", where, pm.Metadata.Namespace, pm.Spec.Selector.MatchLabels)
			}
			for _, ep := range pm.Spec.PodMetricsEndpoints {
				if !slices.ContainsFunc(c.Ports, func(p corev1.ContainerPort) bool {
					return p.Name == ep.Port && p.ContainerPort == atoi32(env["OTEL_EXPORTER_PROMETHEUS_PORT"])
				}) || ep.Path != "/metrics" {
					t.Errorf("%s: podmonitor.yaml scrapes port %q %s; the exporter serves /metrics on %s", where, ep.Port, ep.Path, env["OTEL_EXPORTER_PROMETHEUS_PORT"])
				}
			}
		}
	}
}
