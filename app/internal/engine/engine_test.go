package engine

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"backoffcalc/app/internal/importcfg"
	"backoffcalc/app/internal/imported"
	"backoffcalc/app/internal/work"
)

// An import's reply is what importcfg read, its lists cut to imported.Shown lines with how many
// more, through JSON as it crosses to the page.
func TestImportReply(t *testing.T) {
	for _, c := range []struct {
		text        string
		moreIgnored int
	}{
		{"retry_policy:\n  num_retries: 3\n  per_try_timeout: 2s\n", 0},
		{"[default]\nretry_mode = standard\n" + strings.Repeat("k=1\n", 16300), 16100},
		{"retry_policy:\n  num_retries: x\n", 0},
	} {
		var got imported.Reply
		if err := json.Unmarshal([]byte(Handle(work.Import, c.text)), &got); err != nil {
			t.Fatal(err)
		}
		r, err := importcfg.Read(c.text)
		if err != nil {
			if got.Err != err.Error() || got.Format != "" {
				t.Errorf("%.30q: reply %+v, want the error %q", c.text, got, err)
			}
			continue
		}
		if got.Err != "" || got.Format != r.Format || !reflect.DeepEqual(got.Values, r.Values) || !reflect.DeepEqual(got.Defaults, r.Defaults) ||
			!reflect.DeepEqual(got.Read, r.Read) || got.MoreIgnored != c.moreIgnored || len(got.Ignored) != len(r.Ignored)-c.moreIgnored ||
			(len(got.Ignored) > 0 && got.Ignored[len(got.Ignored)-1] != r.Ignored[len(got.Ignored)-1]) {
			t.Errorf("%.30q: reply %+v\nread %+v", c.text, got, r)
		}
		if len(got.Ignored) > imported.Shown {
			t.Errorf("%d ignored lines cross, at most %d", len(got.Ignored), imported.Shown)
		}
	}
}

// Work of a kind the engine does not know is refused by name, in the reply's error.
func TestUnknownKind(t *testing.T) {
	var got struct{ Err string }
	if err := json.Unmarshal([]byte(Handle("herd", "")), &got); err != nil || got.Err != `engine: no work of kind "herd"` {
		t.Errorf("%v, %q", err, got.Err)
	}
}
