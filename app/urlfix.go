package main

import (
	"net/url"
	"strings"
)

// parsableURL returns href in a form that url.Parse accepts, and whether it had to change it.
// go-app v9 parses the page's address with url.Parse, drops the error and, on the nil URL that
// follows, panics at start: a link such as /?base=2s#discount-50% killed the page. Browsers keep
// a '%' that starts no escape as it is, so each such '%' becomes "%25", which is how a browser
// would have encoded it; so do control characters, which a browser never leaves in an address.
// If the address still does not parse, its fragment is dropped, then its query; the scheme and
// host come from the browser and always parse.
func parsableURL(href string) (string, bool) {
	if _, err := url.Parse(href); err == nil {
		return href, false
	}
	fixed := escapeForURL(href)
	if _, err := url.Parse(fixed); err == nil {
		return fixed, true
	}
	fixed, _, _ = strings.Cut(fixed, "#")
	if _, err := url.Parse(fixed); err == nil {
		return fixed, true
	}
	fixed, _, _ = strings.Cut(fixed, "?")
	return fixed, true
}

// escapeForURL percent-encodes every control byte of s and every '%' that is not followed by two
// hex digits.
func escapeForURL(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		stray := c == '%' && !(i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]))
		if c < ' ' || c == 0x7f || stray {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
