package ledger

import (
	"slices"
	"testing"
)

// TestIdentifierForms: identifiers in the shapes tools print them: a short
// container id or an ObjectId after the word that names it, a typed id
// with a lower-case prefix, another repository's issue, an AWS ARN. A
// snake_case name, a word after '#' and a hex word in prose are not ids.
func TestIdentifierForms(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
		not  []string
	}{
		{"container a1b2c3d4e5f6 exited with code 137", []string{"id a1b2c3d4e5f6"}, nil},
		{"E11000 duplicate key { _id: ObjectId('65a1f2c3d4e5f6a7b8c9d0e1') }", []string{"id 65a1f2c3d4e5f6a7b8c9d0e1"}, nil},
		{"customer cus_PaB3cD4eF5gH6i created", []string{"id cus_PaB3cD4eF5gH6i"}, nil},
		{"charge ch_3NqLkT2eZvKYlo2C1a2b3c4d failed", []string{"id ch_3NqLkT2eZvKYlo2C1a2b3c4d"}, nil},
		{"Fixes acme/billing#4821 and #4822.", []string{"id acme/billing#4821", "id #4822"}, nil},
		{"arn:aws:lambda:us-east-1:123456789012:function:invoice-reaper timed out", []string{"id arn:aws:lambda:us-east-1:123456789012:function:invoice-reaper"}, nil},
		{"   3fa9c2d..8b1e5c0  main -> main", []string{"id 3fa9c2d", "id 8b1e5c0"}, nil},
		{"v1.4.2-14-g5e6f7a8", []string{"id 5e6f7a8"}, nil},
		{"deployed 2c3d4e5 to production", []string{"id 2c3d4e5"}, nil},
		{"X-Request-Id: 5f2b9c1e-77aa-4c1b-9e2f-7a6b5c4d3e2f", []string{"id X-Request-Id=5f2b9c1e-77aa-4c1b-9e2f-7a6b5c4d3e2f"}, nil},
		{"x-amz-request-id: 8D2F1A9C3B7E4F60", []string{"id x-amz-request-id=8D2F1A9C3B7E4F60"}, nil},
		{"max_retries_per_host2 = 3, test_parse_unicode_v2 ok", nil, []string{"id max_retries_per_host2", "id test_parse_unicode_v2"}},
		{"content-length: 4821, see 1.2.3..1.3.0 and a-b-g1234567x", nil, []string{"id content-length=4821", "id 1234567"}},
		{"color: #ff00aa; see issue#12", nil, []string{"id issue#12"}},
		{"the added facade was decaf", nil, []string{"id facade", "id decaf"}},
	} {
		var got []string
		for _, it := range outputItems(tc.text) {
			if it.Kind == KindID {
				got = append(got, it.String())
			}
		}
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("%q: %s missing from %q", tc.text, w, got)
			}
		}
		for _, n := range tc.not {
			if slices.Contains(got, n) {
				t.Errorf("%q: %s is no identifier", tc.text, n)
			}
		}
	}
}
