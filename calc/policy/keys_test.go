package policy_test

import (
	"reflect"
	"slices"
	"testing"

	"backoffcalc/calc/policy"
)

// Every input of policy.Params has a key of policy.Keys: changing any field (those of the
// embedded Policy, CallInputs and SampleInputs) changes what some key writes, so that a new
// input of the policy gets its key here, in the core, and not in calc.
func TestEveryFieldHasAKey(t *testing.T) {
	d := policy.Default()
	fields := 0
	var walk func(typ reflect.Type, index []int, name string)
	walk = func(typ reflect.Type, index []int, name string) {
		if typ.Kind() == reflect.Struct {
			for i := range typ.NumField() {
				walk(typ.Field(i).Type, append(slices.Clone(index), i), name+"."+typ.Field(i).Name)
			}
			return
		}
		fields++
		p := d
		v := reflect.ValueOf(&p).Elem().FieldByIndex(index)
		switch v.Kind() {
		case reflect.Int, reflect.Int64:
			v.SetInt(v.Int() + 1)
		case reflect.Uint8, reflect.Uint64:
			v.SetUint(v.Uint() + 1)
		case reflect.Float64:
			v.SetFloat(v.Float() + 0.5)
		case reflect.Bool:
			v.SetBool(!v.Bool())
		default:
			t.Errorf("Params%s: a %s, which this test cannot change", name, v.Kind())
			return
		}
		for _, k := range policy.Keys() {
			if k.Encode != nil && k.Encode(&p) != k.Encode(&d) {
				return
			}
		}
		t.Errorf("Params%s has no key in policy.Keys", name)
	}
	walk(reflect.TypeFor[policy.Params](), nil, "")
	if fields < 16 {
		t.Errorf("only %d fields of Params were changed", fields)
	}
}
