package deploy

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	sigsyaml "sigs.k8s.io/yaml"
)

// manifests is where the Kubernetes manifests live, relative to the
// repository.
const manifests = "deploy/kubernetes"

// The kustomizations that must exist and build.
var wantKustomizations = []string{"base", "base/services", "base/sandbox", "overlays/example", "overlays/example-tls", "job"}

// objects is one kustomization's output, decoded into the API types.
type objects struct {
	dir             string
	deployments     []*appsv1.Deployment
	jobs            []*batchv1.Job
	services        []*corev1.Service
	pdbs            []*policyv1.PodDisruptionBudget
	hpas            []*autoscalingv2.HorizontalPodAutoscaler
	configMaps      []*corev1.ConfigMap
	secrets         []*corev1.Secret
	networkPolicies []*networkingv1.NetworkPolicy
	namespaces      []*corev1.Namespace
	other           []runtime.Object
}

// decoder decodes YAML strictly into the upstream types: an unknown or
// duplicated field is an error, as is a kind the scheme does not hold.
func decoder(t testing.TB) runtime.Decoder {
	t.Helper()
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{
		corev1.AddToScheme, appsv1.AddToScheme, batchv1.AddToScheme, policyv1.AddToScheme,
		autoscalingv2.AddToScheme, networkingv1.AddToScheme,
	} {
		if err := add(scheme); err != nil {
			t.Fatal(err)
		}
	}
	return json.NewSerializerWithOptions(json.DefaultMetaFactory, scheme, scheme,
		json.SerializerOptions{Yaml: true, Strict: true})
}

func (o *objects) add(obj runtime.Object) {
	switch obj := obj.(type) {
	case *appsv1.Deployment:
		o.deployments = append(o.deployments, obj)
	case *batchv1.Job:
		o.jobs = append(o.jobs, obj)
	case *corev1.Service:
		o.services = append(o.services, obj)
	case *policyv1.PodDisruptionBudget:
		o.pdbs = append(o.pdbs, obj)
	case *autoscalingv2.HorizontalPodAutoscaler:
		o.hpas = append(o.hpas, obj)
	case *corev1.ConfigMap:
		o.configMaps = append(o.configMaps, obj)
	case *corev1.Secret:
		o.secrets = append(o.secrets, obj)
	case *networkingv1.NetworkPolicy:
		o.networkPolicies = append(o.networkPolicies, obj)
	case *corev1.Namespace:
		o.namespaces = append(o.namespaces, obj)
	default:
		o.other = append(o.other, obj)
	}
}

// buildAll copies the manifests into kustomize's in-memory file system,
// builds every kustomization there (a kustomization.yaml of kind
// Kustomization; components are built through the overlays that use them)
// and decodes every object strictly.
func buildAll(t *testing.T) map[string]*objects {
	t.Helper()
	mem := filesys.MakeFsInMemory()
	var dirs []string
	err := filepath.WalkDir(filepath.Join(root, manifests), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(filepath.Join(root, manifests), p)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := mem.WriteFile(path.Join("/k", filepath.ToSlash(rel)), data); err != nil {
			return err
		}
		if d.Name() == "kustomization.yaml" && !strings.Contains(string(data), "\nkind: Component") {
			dirs = append(dirs, filepath.ToSlash(filepath.Dir(rel)))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	dec := decoder(t)
	out := map[string]*objects{}
	k := krusty.MakeKustomizer(krusty.MakeDefaultOptions())
	for _, dir := range dirs {
		rm, err := k.Run(mem, path.Join("/k", dir))
		if err != nil {
			t.Errorf("kustomize build %s: %v", dir, err)
			continue
		}
		o := &objects{dir: dir}
		for _, r := range rm.Resources() {
			data, err := r.AsYAML()
			if err != nil {
				t.Fatal(err)
			}
			obj, _, err := dec.Decode(data, nil, nil)
			if err != nil {
				t.Errorf("%s: %s %s: %v", dir, r.GetKind(), r.GetName(), err)
				continue
			}
			o.add(obj)
		}
		out[dir] = o
	}
	for _, want := range wantKustomizations {
		if out[want] == nil {
			t.Errorf("kustomization %s missing or not built", want)
		}
	}
	return out
}

// exampleSecrets decodes secrets.example.yaml strictly: the Secrets the
// manifests may reference, with the keys they hold.
func exampleSecrets(t *testing.T) map[string]*corev1.Secret {
	t.Helper()
	data := readRepoFile(t, manifests+"/secrets.example.yaml")
	dec := decoder(t)
	out := map[string]*corev1.Secret{}
	r := yaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	for {
		doc, err := r.Read()
		if err != nil {
			break
		}
		var probe map[string]any
		if err := sigsyaml.Unmarshal(doc, &probe); err != nil {
			t.Fatal(err)
		}
		if len(probe) == 0 {
			continue // comments only
		}
		obj, _, err := dec.Decode(doc, nil, nil)
		if err != nil {
			t.Fatalf("secrets.example.yaml: %v", err)
		}
		s, ok := obj.(*corev1.Secret)
		if !ok {
			t.Fatalf("secrets.example.yaml holds a %T", obj)
		}
		for k, v := range s.StringData {
			if !strings.Contains(v, "PLACEHOLDER") && !placeholderOK[k] {
				t.Errorf("secrets.example.yaml: %s.%s holds a value; examples hold PLACEHOLDER", s.Name, k)
			}
		}
		out[s.Name] = s
	}
	if len(out) == 0 {
		t.Fatal("secrets.example.yaml holds no Secret")
	}
	return out
}

// placeholderOK are example keys whose values are settings, not secrets.
var placeholderOK = map[string]bool{"PGHOST": true, "PGPORT": true, "PGDATABASE": true, "PGUSER": true, "PGSSLMODE": true}

// TestKustomizeBuilds builds and decodes everything; the checks below use
// the same builds.
func TestKustomizeBuilds(t *testing.T) {
	all := buildAll(t)
	for dir, o := range all {
		t.Logf("%s: %d Namespaces, %d Deployments, %d Jobs, %d Services, %d PDBs, %d HPAs, %d ConfigMaps, %d NetworkPolicies, %d others",
			dir, len(o.namespaces), len(o.deployments), len(o.jobs), len(o.services), len(o.pdbs), len(o.hpas), len(o.configMaps), len(o.networkPolicies), len(o.other))
	}
}
