// A WebAssembly build of mvdan.cc/sh/v3/syntax for the parser bench (docs/decisions/0033).
// It registers globalThis.tandemShParse(src): the syntax tree as JSON, with the field names
// of mvdan.cc/sh/v3/syntax (the ones src/targets/shell/syntax.ts reads), each node tagged
// with its type ("$") and offsets, positions as offsets, operators by their spelling (0 when
// there is none); or {"error": "..."}.
package main

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"syscall/js"

	"mvdan.cc/sh/v3/syntax"
)

var posType = reflect.TypeOf(syntax.Pos{})
var nodeType = reflect.TypeOf((*syntax.Node)(nil)).Elem()
var stringer = reflect.TypeOf((*fmt.Stringer)(nil)).Elem()

func main() {
	parser := syntax.NewParser()
	js.Global().Set("tandemShParse", js.FuncOf(func(this js.Value, args []js.Value) any {
		file, err := parser.Parse(strings.NewReader(args[0].String()), "")
		var b strings.Builder
		if err != nil {
			quoted, _ := json.Marshal(err.Error())
			b.WriteString(`{"error":`)
			b.Write(quoted)
			b.WriteString("}")
		} else {
			encode(&b, reflect.ValueOf(file))
		}
		return b.String()
	}))
	select {}
}

func encode(b *strings.Builder, v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			b.WriteString("null")
			return
		}
		if v.Type().Implements(nodeType) && v.Kind() == reflect.Pointer {
			encodeNode(b, v)
			return
		}
		encode(b, v.Elem())
	case reflect.Slice:
		b.WriteString("[")
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				b.WriteString(",")
			}
			encode(b, v.Index(i))
		}
		b.WriteString("]")
	case reflect.Struct:
		if v.Type() == posType {
			fmt.Fprintf(b, "%d", v.Interface().(syntax.Pos).Offset())
			return
		}
		encodeFields(b, v, false)
		b.WriteString("}")
	case reflect.String:
		quoted, _ := json.Marshal(v.String())
		b.Write(quoted)
	case reflect.Bool:
		fmt.Fprintf(b, "%t", v.Bool())
	default:
		// An operator's zero value means none (ParamExp.Names): keep it falsy, as GopherJS does.
		if v.Type().Implements(stringer) && !v.IsZero() {
			quoted, _ := json.Marshal(v.Interface().(fmt.Stringer).String())
			b.Write(quoted)
			return
		}
		switch v.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			fmt.Fprintf(b, "%d", v.Int())
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			fmt.Fprintf(b, "%d", v.Uint())
		default:
			b.WriteString("null")
		}
	}
}

func encodeNode(b *strings.Builder, v reflect.Value) {
	node := v.Interface().(syntax.Node)
	fmt.Fprintf(b, `{"$":%q,"_pos":%d,"_end":%d`, v.Elem().Type().Name(), node.Pos().Offset(), node.End().Offset())
	encodeFields(b, v.Elem(), true)
	b.WriteString("}")
}

func encodeFields(b *strings.Builder, v reflect.Value, comma bool) {
	if !comma {
		b.WriteString("{")
	}
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() || f.Name == "Comments" {
			continue
		}
		if comma {
			b.WriteString(",")
		}
		comma = true
		fmt.Fprintf(b, "%q:", f.Name)
		encode(b, v.Field(i))
	}
}
