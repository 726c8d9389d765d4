package main

import (
	"net/url"
	"testing"
)

func TestParsableURL(t *testing.T) {
	for _, tc := range []struct{ href, want string }{
		{"http://h/?base=2s", "http://h/?base=2s"},
		{"http://h/?base=2s#discount-50%", "http://h/?base=2s#discount-50%25"},
		{"http://h/#%", "http://h/#%25"},
		{"http://h/?base=2s#%zz", "http://h/?base=2s#%25zz"},
		{"http://h/#%4", "http://h/#%254"},
		{"http://h/#100%25", "http://h/#100%25"},
		{"http://h/%zz?base=1s", "http://h/%25zz?base=1s"},
		{"http://h/?base=%zz#%", "http://h/?base=%25zz#%25"},
		{"http://h/?base=2s#a%20b", "http://h/?base=2s#a%20b"},
	} {
		got, changed := parsableURL(tc.href)
		if got != tc.want || changed != (tc.href != tc.want) {
			t.Errorf("parsableURL(%q) = %q, %v; want %q", tc.href, got, changed, tc.want)
		}
		if _, err := url.Parse(got); err != nil {
			t.Errorf("parsableURL(%q) = %q, which does not parse: %v", tc.href, got, err)
		}
	}
}

func FuzzParsableURL(f *testing.F) {
	for _, s := range []string{"http://h/?base=2s#discount-50%", "http://h/#%", "http://h/a%zz?b=%#%%"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tail string) {
		href := "http://127.0.0.1:8000/" + tail
		got, _ := parsableURL(href)
		if _, err := url.Parse(got); err != nil {
			t.Errorf("parsableURL(%q) = %q, which does not parse: %v", href, got, err)
		}
	})
}
