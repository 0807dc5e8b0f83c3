package httpapi

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// openAPIPath is where the server describes itself.
const openAPIPath = "/v1/openapi.json"

// OpenAPI returns the OpenAPI 3.1 document of the REST API, the one served
// at GET /v1/openapi.json, so that clients in other languages can be
// generated from it. It is built from apiRoutes and the Go types of the
// requests and responses, so it cannot describe fields the code lacks.
func OpenAPI() []byte { return openAPIDocument() }

var openAPIDocument = sync.OnceValue(func() []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(buildOpenAPI()); err != nil {
		panic("openapi: " + err.Error()) // the document is made of maps, slices and strings
	}
	return buf.Bytes()
})

func (s *Server) openAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write(openAPIDocument())
}

// buildOpenAPI assembles the document: info, security, one operation per
// route, and the schemas the operations reference.
func buildOpenAPI() schemaObject {
	set := newSchemaSet(apiRoutes)
	errRef := set.ref(typeOf[errorBody](), false)
	paths := schemaObject{}
	for _, rt := range apiRoutes {
		method, path, _ := strings.Cut(rt.pattern, " ")
		item, _ := paths[path].(schemaObject)
		if item == nil {
			item = schemaObject{}
			paths[path] = item
		}
		item[strings.ToLower(method)] = operation(set, rt)
	}
	// The error body's code is one of the domain codes this transport maps.
	errSchema := set.components["Error"]["properties"].(schemaObject)["error"].(schemaObject)
	errSchema["properties"].(schemaObject)["code"] = schemaObject{"type": "string", "enum": slices.Sorted(maps.Keys(statusCodes))}
	return schemaObject{
		"openapi": "3.1.0",
		"info": schemaObject{
			"title":       "recall REST API",
			"version":     "1",
			"description": "recall's local memory store over HTTP. Every error answers {\"error\":{\"code\",\"message\"}}; the message says what to do next. See docs/servers.md.",
		},
		"servers":  []schemaObject{{"url": "http://127.0.0.1:7077", "description": "recall serve's default address"}},
		"security": []schemaObject{{}, {"bearer": []string{}}},
		"paths":    paths,
		"components": schemaObject{
			"schemas": set.components,
			"responses": schemaObject{
				"Error": schemaObject{
					"description": "An error: the status follows error.code (invalid 400, unauthorized 401, forbidden 403, not_found 404, conflict 409, too_large 413, internal 500, not_implemented 501, unavailable 503); a method a path does not take is 405 (code invalid) with an Allow header.",
					"content":     schemaObject{"application/json": schemaObject{"schema": errRef}},
				},
			},
			"securitySchemes": schemaObject{
				"bearer": schemaObject{"type": "http", "scheme": "bearer", "description": "Required when the server was started with --token (always, off loopback)."},
			},
		},
	}
}

func operation(set *schemaSet, rt routeDoc) schemaObject {
	op := schemaObject{"operationId": rt.id, "summary": rt.summary}
	if len(rt.params) > 0 {
		var ps []schemaObject
		for _, p := range rt.params {
			schema := p.schema
			if p.repeat {
				schema = schemaObject{"type": "array", "items": p.schema}
			}
			param := schemaObject{"name": p.name, "in": p.in, "description": p.about, "schema": schema}
			if p.required {
				param["required"] = true
			}
			if p.repeat {
				// FIELD=VALUE: the server splits each value on its first "=",
				// so it need not be escaped.
				param["style"], param["explode"], param["allowReserved"] = "form", true, true
			}
			ps = append(ps, param)
		}
		op["parameters"] = ps
	}
	if rt.body != nil {
		op["requestBody"] = schemaObject{
			"required": !rt.optional,
			"content":  schemaObject{"application/json": schemaObject{"schema": set.ref(rt.body, true)}},
		}
	}
	responses := schemaObject{"default": schemaObject{"$ref": "#/components/responses/Error"}}
	for status, body := range rt.responses {
		resp := schemaObject{"description": http.StatusText(status)}
		if body != nil {
			media := rt.media
			if media == "" {
				media = "application/json"
			} else {
				// A stream of values, one per line: the schema is a line's.
				resp["description"] = http.StatusText(status) + ": one JSON value per line, each matching the schema."
			}
			resp["content"] = schemaObject{media: schemaObject{"schema": set.ref(body, false)}}
		}
		responses[strconv.Itoa(status)] = resp
	}
	op["responses"] = responses
	return op
}
