package calc

import (
	"testing"
	"time"
)

func TestOverloadRunFigures(t *testing.T) {
	tests := []struct {
		name     string
		run      OverloadRun
		share    float64
		recovers bool
	}{
		{"nothing served", OverloadRun{Recovered: -1}, 0, false},
		{"none wasted", OverloadRun{Served: 40}, 0, true},
		{"a quarter", OverloadRun{Served: 30, Wasted: 10, Recovered: 2 * time.Second}, 0.25, true},
		{"all wasted", OverloadRun{Wasted: 7, Recovered: -1}, 1, false},
		// Counts near the int limit still give a share in [0, 1].
		{"overflow", OverloadRun{Served: 1 << 62, Wasted: 1 << 62}, 0.5, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.run.WastedShare(); got != tt.share {
				t.Errorf("WastedShare = %v, want %v", got, tt.share)
			}
			if got := tt.run.Recovers(); got != tt.recovers {
				t.Errorf("Recovers = %v, want %v", got, tt.recovers)
			}
		})
	}
}
