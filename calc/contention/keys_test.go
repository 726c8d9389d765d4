package contention

import (
	"reflect"
	"testing"
	"unsafe"
)

// TestEveryInputHasAKey fails for a field of Inputs that no Key sets, so that a new input of
// the experiment has its key in this package (calc's key table draws its rows from Keys), for
// two keys of one name or one field, and for a key whose default is out of its range.
func TestEveryInputHasAKey(t *testing.T) {
	in := Inputs{Contenders: DefaultContenders, Runs: DefaultRuns}
	set := map[uintptr]string{} // field offset → key
	names := map[string]bool{}
	for _, k := range Keys() {
		if k.Int == nil {
			t.Errorf("%s sets no field", k.Name)
			continue
		}
		off := uintptr(unsafe.Pointer(k.Int(&in))) - uintptr(unsafe.Pointer(&in))
		if was, ok := set[off]; ok {
			t.Errorf("%s and %s set the same field", was, k.Name)
		}
		if names[k.Name] {
			t.Errorf("two keys are named %s", k.Name)
		}
		set[off], names[k.Name] = k.Name, true
		if v := *k.Int(&in); k.Hi < k.Lo || v < k.Lo || v > k.Hi {
			t.Errorf("%s: default %d, range [%d, %d]", k.Name, v, k.Lo, k.Hi)
		}
	}
	typ := reflect.TypeFor[Inputs]()
	for i := range typ.NumField() {
		if f := typ.Field(i); set[f.Offset] == "" {
			t.Errorf("Inputs.%s has no Key", f.Name)
		}
	}
}
