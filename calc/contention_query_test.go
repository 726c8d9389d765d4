package calc

import (
	"strings"
	"testing"

	"backoffcalc/calc/contention"
)

// The contention keys are in the canonical link when set; at their defaults they are left out, so
// that a link that never asked for the experiment stays short.
func TestEncodeContention(t *testing.T) {
	tests := []struct {
		name        string
		query       string
		has, hasNot []string
	}{
		{"defaults", "", nil, []string{"contenders=", "runs="}},
		{"defaults given", "contenders=100&runs=100", nil, []string{"contenders=", "runs="}},
		{"set", "contenders=50&runs=7", []string{"&contenders=50&", "&runs=7&"}, nil},
		{"one set", "runs=7", []string{"&runs=7&"}, []string{"contenders="}},
		{"with a stream", "rate=5&run=1s", nil, []string{"contenders=", "runs="}},
		{"limits", "contenders=500&runs=1000", []string{"contenders=500", "runs=1000"}, nil},
		{"low limits", "contenders=1&runs=1", []string{"contenders=1&", "runs=1&"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Decode(tt.query)
			if err != nil {
				t.Fatal(err)
			}
			got := p.Encode()
			for _, s := range tt.has {
				if !strings.Contains(got, s) {
					t.Errorf("Encode() = %q, without %q", got, s)
				}
			}
			for _, s := range tt.hasNot {
				if strings.Contains(got, s) {
					t.Errorf("Encode() = %q, with %q", got, s)
				}
			}
			if back, err := Decode(got); err != nil || back != p {
				t.Errorf("round trip of %q: %+v, %v", got, back, err)
			}
		})
	}
}

func TestValidateContention(t *testing.T) {
	for _, tt := range []struct {
		contenders, runs int
		want             string
	}{
		{0, 100, `calc: contenders "0": must be between 1 and 500`},
		{contention.MaxContenders + 1, 100, `calc: contenders "501": must be between 1 and 500`},
		{100, 0, `calc: runs "0": must be between 1 and 1000`},
		{100, contention.MaxRuns + 1, `calc: runs "1001": must be between 1 and 1000`},
		{-1, -1, `calc: contenders "-1": must be between 1 and 500` + "\n" + `calc: runs "-1": must be between 1 and 1000`},
		{1, 1, ""},
		{contention.MaxContenders, contention.MaxRuns, ""},
	} {
		p := Default()
		p.Contenders, p.Runs = tt.contenders, tt.runs
		got := ""
		if err := p.Validate(); err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("Validate of contenders %d, runs %d: %q, want %q", tt.contenders, tt.runs, got, tt.want)
		}
	}
}
