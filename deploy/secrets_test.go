package deploy

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// sensitiveName matches the names of variables that hold secrets.
var sensitiveName = regexp.MustCompile(`(?i)pass|token|secret|api_?key|dsn|credential`)

// urlPassword matches a URL carrying a password (scheme://user:pass@).
var urlPassword = regexp.MustCompile(`://[^/@\s]*:[^/@\s]*@`)

// varRef matches Kubernetes' $(VAR) references in args.
var varRef = regexp.MustCompile(`\$\(([A-Za-z_][A-Za-z0-9_]*)\)`)

// TestSecrets: no kustomization creates a Secret (applying it would
// overwrite the real one); every Secret a pod uses is referenced — by
// environment or volume — and is one of secrets.example.yaml's, with the
// keys used; Secret files are not world-readable; no literal value looks
// like a secret; the files the arguments name exist in the Secret or
// ConfigMap mounted there; PostgreSQL is reached as postgres:/// with
// libpq's variables from a Secret.
func TestSecrets(t *testing.T) {
	examples := exampleSecrets(t)
	if s := examples["triage-tls"]; s != nil && s.Type != corev1.SecretTypeTLS {
		t.Errorf("triage-tls is %s, want %s", s.Type, corev1.SecretTypeTLS)
	}
	hasKey := func(src source, configMaps []*corev1.ConfigMap) bool {
		if src.kind == "Secret" {
			s := examples[src.name]
			if s == nil {
				return false
			}
			_, ok := s.StringData[src.key]
			return ok
		}
		for _, cm := range configMaps {
			if cm.Name == src.name {
				_, ok := cm.Data[src.key]
				return ok
			}
		}
		return false
	}
	for _, o := range buildAll(t) {
		for _, s := range o.secrets {
			t.Errorf("%s: creates Secret %s; Secrets are created apart (secrets.example.yaml)", o.dir, s.Name)
		}
		for _, p := range o.pods() {
			checkVolumes(t, p, examples, o.configMaps)
			for _, c := range p.spec.Containers {
				where := p.where + " container " + c.Name
				pgFromSecret := false
				for _, e := range c.EnvFrom {
					switch {
					case e.SecretRef != nil:
						s := examples[e.SecretRef.Name]
						if s == nil {
							t.Errorf("%s: env from Secret %s, not in secrets.example.yaml", where, e.SecretRef.Name)
							continue
						}
						_, host := s.StringData["PGHOST"]
						_, pw := s.StringData["PGPASSWORD"]
						pgFromSecret = pgFromSecret || host && pw
					case e.ConfigMapRef != nil:
						t.Errorf("%s: env from ConfigMap %s; nothing here needs one", where, e.ConfigMapRef.Name)
					}
				}
				defined := map[string]bool{}
				for _, e := range c.Env {
					defined[e.Name] = true
					switch {
					case e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil:
						ref := e.ValueFrom.SecretKeyRef
						if !hasKey(source{"Secret", ref.Name, ref.Key}, nil) {
							t.Errorf("%s: env %s from Secret %s key %s, not in secrets.example.yaml", where, e.Name, ref.Name, ref.Key)
						}
					case e.Value != "" && (sensitiveName.MatchString(e.Name) || urlPassword.MatchString(e.Value)):
						t.Errorf("%s: env %s holds a literal secret; reference a Secret", where, e.Name)
					}
				}
				for _, a := range c.Args {
					for _, m := range varRef.FindAllStringSubmatch(a, -1) {
						if !defined[m[1]] {
							t.Errorf("%s: argument %q refers to $(%s), which env does not define (Kubernetes would pass it verbatim)", where, a, m[1])
						}
					}
					if strings.HasPrefix(a, "--token") || urlPassword.MatchString(a) {
						t.Errorf("%s: argument %q holds a secret; arguments are visible in the API", where, a)
					}
					if strings.Contains(a, "postgres") {
						if _, v, _ := strings.Cut(a, "="); v != "postgres:///" {
							t.Errorf("%s: argument %q: name PostgreSQL as postgres:/// and give it libpq's variables from a Secret", where, a)
						} else if !pgFromSecret {
							t.Errorf("%s: argument %q, but no Secret gives it PGHOST and PGPASSWORD", where, a)
						}
					}
				}
				// Files named by the arguments and by exec probes.
				words := slices.Clone(c.Args)
				for _, pr := range []*corev1.Probe{c.StartupProbe, c.ReadinessProbe, c.LivenessProbe} {
					if pr != nil && pr.Exec != nil {
						words = append(words, pr.Exec.Command[1:]...)
					}
				}
				for _, a := range words {
					file := a
					if strings.HasPrefix(a, "-") {
						_, file, _ = strings.Cut(a, "=")
					}
					if !strings.HasPrefix(file, "/") {
						continue
					}
					srcs := resolveFile(*p.spec, c, file)
					found := false
					for _, src := range srcs {
						found = found || hasKey(src, o.configMaps)
					}
					if len(srcs) > 0 && !found {
						t.Errorf("%s: %q names %s, which the volume mounted there does not hold (%v)", where, a, file, srcs)
					}
				}
			}
		}
	}
}

// checkVolumes wants every Secret and ConfigMap a pod mounts to exist, with
// the keys it lists, and Secret files readable by owner and group only.
func checkVolumes(t *testing.T, p pod, examples map[string]*corev1.Secret, configMaps []*corev1.ConfigMap) {
	t.Helper()
	secret := func(where, name string, items []corev1.KeyToPath, mode *int32) {
		s := examples[name]
		if s == nil {
			t.Errorf("%s: Secret %s is not in secrets.example.yaml", where, name)
			return
		}
		for _, it := range items {
			if _, ok := s.StringData[it.Key]; !ok {
				t.Errorf("%s: Secret %s has no key %s", where, name, it.Key)
			}
		}
		if mode == nil || *mode&0o007 != 0 {
			t.Errorf("%s: Secret %s mounted world-readable; set defaultMode 0440 (fsGroup gives the group)", where, name)
		}
	}
	configMap := func(where, name string) {
		for _, cm := range configMaps {
			if cm.Name == name {
				return
			}
		}
		t.Errorf("%s: ConfigMap %s is not built with it", where, name)
	}
	for _, v := range p.spec.Volumes {
		where := p.where + " volume " + v.Name
		switch {
		case v.Secret != nil:
			secret(where, v.Secret.SecretName, v.Secret.Items, v.Secret.DefaultMode)
		case v.ConfigMap != nil:
			configMap(where, v.ConfigMap.Name)
		case v.Projected != nil:
			for _, s := range v.Projected.Sources {
				if s.Secret != nil {
					secret(where, s.Secret.Name, s.Secret.Items, v.Projected.DefaultMode)
				}
				if s.ConfigMap != nil {
					configMap(where, s.ConfigMap.Name)
				}
			}
		}
	}
}
