package httpapi

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"
	"unicode"
)

// schemaObject is one JSON Schema (2020-12, the dialect of OpenAPI 3.1).
type schemaObject = map[string]any

// schemaSet derives the JSON Schemas of the OpenAPI document from the Go
// types the handlers encode and decode, so a field added to a type appears
// in the document without anyone remembering to write it there. Every
// named struct becomes a component referenced by name; that also lets
// recursive types (a search hit's context hits) be described.
type schemaSet struct {
	components map[string]schemaObject
	owners     map[string]reflect.Type // component name -> type, to catch two types under one name
	// outputs are the struct types some response carries: a request
	// schema of one of them needs a name of its own ("MemoryInput").
	outputs map[reflect.Type]bool
}

// newSchemaSet prepares the schemas of the types that routes send back.
func newSchemaSet(routes []routeDoc) *schemaSet {
	s := &schemaSet{components: map[string]schemaObject{}, owners: map[string]reflect.Type{}, outputs: map[reflect.Type]bool{}}
	for _, rt := range routes {
		for _, body := range rt.responses {
			if body != nil {
				walkStructs(body, s.outputs)
			}
		}
	}
	return s
}

// schemaNames names the handlers' own types as clients should see them.
var schemaNames = map[reflect.Type]string{
	typeOf[errorBody]():   "Error",
	typeOf[contextBody](): "ContextRequest",
	typeOf[importBody]():  "ImportRequest",
	typeOf[restoreBody](): "RestoreRequest",
	typeOf[filterBody]():  "MemoryFilter",
}

// walkStructs adds t and every named struct type reachable from it to seen.
func walkStructs(t reflect.Type, seen map[reflect.Type]bool) {
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		walkStructs(t.Elem(), seen)
	case reflect.Struct:
		if t == timeType || seen[t] {
			return
		}
		if t.Name() != "" {
			seen[t] = true
		}
		for _, f := range reflect.VisibleFields(t) {
			if f.IsExported() && !f.Anonymous {
				walkStructs(f.Type, seen)
			}
		}
	}
}

var (
	timeType = reflect.TypeFor[time.Time]()
	rawType  = reflect.TypeFor[json.RawMessage]()
)

// ref returns the schema of a value of type t as it travels in a response
// (input false) or a request body (input true). Request components list no
// required fields: the decoder accepts any subset and the handler reports
// what is missing in its error, so a client must not be forced to send
// fields the server fills in (id, created_at).
func (s *schemaSet) ref(t reflect.Type, input bool) schemaObject {
	switch {
	case t == timeType:
		return schemaObject{"type": "string", "format": "date-time"}
	case t == rawType:
		return schemaObject{"description": "Any JSON value."}
	}
	switch t.Kind() {
	case reflect.Pointer:
		return s.ref(t.Elem(), input)
	case reflect.Interface:
		return schemaObject{}
	case reflect.String:
		return schemaObject{"type": "string"}
	case reflect.Bool:
		return schemaObject{"type": "boolean"}
	case reflect.Int, reflect.Int32:
		return schemaObject{"type": "integer"}
	case reflect.Int64:
		return schemaObject{"type": "integer", "format": "int64"}
	case reflect.Float32, reflect.Float64:
		return schemaObject{"type": "number"}
	case reflect.Slice, reflect.Array:
		return schemaObject{"type": "array", "items": s.ref(t.Elem(), input)}
	case reflect.Map:
		return schemaObject{"type": "object", "additionalProperties": s.ref(t.Elem(), input)}
	case reflect.Struct:
		if t.Name() == "" {
			return s.object(t, input)
		}
		name := componentName(t)
		if input && s.outputs[t] && requiresAny(t) {
			name += "Input"
		}
		if owner, ok := s.owners[name]; ok && owner != t {
			panic(fmt.Sprintf("openapi: %v and %v are both named %s", owner, t, name))
		}
		if _, done := s.owners[name]; !done {
			s.owners[name] = t
			s.components[name] = s.object(t, input)
		}
		return schemaObject{"$ref": "#/components/schemas/" + name}
	}
	panic(fmt.Sprintf("openapi: no schema for %v", t))
}

// object describes a struct field by field, the way encoding/json sees it.
func (s *schemaSet) object(t reflect.Type, input bool) schemaObject {
	props := schemaObject{}
	var required []string
	for _, f := range reflect.VisibleFields(t) {
		if !f.IsExported() || f.Anonymous {
			continue
		}
		name, optional, skip := jsonField(f)
		if skip {
			continue
		}
		p := s.ref(f.Type, input)
		if !optional && nullable(f.Type) {
			// encoding/json writes a nil pointer, slice or map as null.
			p = orNull(p)
		}
		props[name] = p
		if !optional && !input {
			required = append(required, name)
		}
	}
	o := schemaObject{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		o["required"] = required
	}
	return o
}

// requiresAny reports whether t's response schema, or that of a struct it
// holds, requires a field, that is whether its request schema differs.
func requiresAny(t reflect.Type) bool {
	seen := map[reflect.Type]bool{}
	walkStructs(t, seen)
	for st := range seen {
		for _, f := range reflect.VisibleFields(st) {
			if _, optional, skip := jsonField(f); f.IsExported() && !f.Anonymous && !skip && !optional {
				return true
			}
		}
	}
	return false
}

// jsonField reads a field's encoding/json name and whether it may be left
// out of the JSON.
func jsonField(f reflect.StructField) (name string, optional, skip bool) {
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", false, true
	}
	name, opts, _ := strings.Cut(tag, ",")
	if name == "" {
		name = f.Name
	}
	for o := range strings.SplitSeq(opts, ",") {
		if o == "omitempty" || o == "omitzero" {
			optional = true
		}
	}
	return name, optional, false
}

func nullable(t reflect.Type) bool {
	if t == rawType {
		return false // its schema already allows any value
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map:
		return true
	}
	return false
}

// orNull widens p to also accept null.
func orNull(p schemaObject) schemaObject {
	if typ, ok := p["type"].(string); ok {
		q := schemaObject{}
		for k, v := range p {
			q[k] = v
		}
		q["type"] = []string{typ, "null"}
		return q
	}
	return schemaObject{"anyOf": []schemaObject{p, {"type": "null"}}}
}

// componentName is a type's name as a schema component: exported style,
// whether or not the Go type is exported.
func componentName(t reflect.Type) string {
	if name, ok := schemaNames[t]; ok {
		return name
	}
	r := []rune(t.Name())
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}
