package gtfile

import (
	"strings"
	"testing"
)

// TestRepeatedKey: a key written twice in one record is refused by name,
// never read as its last value (a record with two costs measures neither).
func TestRepeatedKey(t *testing.T) {
	for _, line := range []string{
		`{"model":"m","mode":"standard","dataset":"d","problem_id":"p","cost":10,"correct":true,"cost":20}`,
		`{"model":"m","mode":"standard","dataset":"d","problem_id":"p","cost":10,"correct":false,"correct":true}`,
		`{"model":"m","mode":"standard","dataset":"d","problem_id":"p","cost":10,"correct":true,"problem_sha256":"","problem_sha256":"` + strings.Repeat("ab", 32) + `"}`,
	} {
		_, err := ParseLine([]byte(line))
		if err == nil || !strings.Contains(err.Error(), "repeated key") {
			t.Errorf("%s: err %v, want a repeated key", line, err)
		}
	}
	if _, err := ParseLine([]byte(`{"model":"m","mode":"standard","dataset":"d","problem_id":"p","cost":10,"correct":true}`)); err != nil {
		t.Errorf("a record without repeats: %v", err)
	}
}
