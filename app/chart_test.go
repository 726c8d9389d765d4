//go:build !js

package main

import (
	"slices"
	"testing"
)

// End labels that would overlap are moved apart, in their order, and kept within the chart.
func TestSpreadLabels(t *testing.T) {
	for _, tt := range []struct {
		name string
		ys   []float64
		want []float64
	}{
		{"apart already", []float64{10, 50, 30}, []float64{10, 50, 30}},
		{"two close", []float64{30, 32}, []float64{30, 46}},
		{"order kept", []float64{32, 30}, []float64{46, 30}},
		{"pushed up off the bottom", []float64{95, 96, 100}, []float64{68, 84, 100}},
		{"above the top", []float64{-5, 0}, []float64{0, 16}},
	} {
		got := spreadLabels(tt.ys, 16, 0, 100)
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: spreadLabels(%v) = %v, want %v", tt.name, tt.ys, got, tt.want)
		}
	}
}
