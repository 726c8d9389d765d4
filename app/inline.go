package main

import (
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// inline writes text mixed with inline elements as one piece of markup. go-app writes each
// child of an element with more than one on a line of its own (the server's page, and every
// island's markup), and a browser shows the line break as a space: "<a>the herd table</a>, one
// chart" read "the herd table , one chart". Each part must be text or an element with at most
// one child, which go-app writes on one line.
func inline(parts ...app.UI) app.UI {
	var b strings.Builder
	b.WriteString("<span>")
	for _, part := range parts {
		b.WriteString(app.HTMLString(part))
	}
	b.WriteString("</span>")
	return app.Raw(b.String())
}
