// Command oracle renders the template cases in ../cases.json with real Go text/template, configured
// as HyperFleet's adapter does (ADP:pkg/utils/template.go: Option("missingkey=error") and its
// FuncMap), and prints the results as JSON: the golden file our TypeScript engine is tested against.
//
// Regenerate (needs Debian's golang-go and golang-golang-x-text-dev; no network):
//
//	libs/go-template/src/testdata/oracle/regenerate.sh
//
// Differences from the adapter, on purpose: `now` returns a fixed instant so outputs are stable,
// and the FuncMap also has trimPrefix, trimSuffix and float, which the contract lists (§2.3).
//
// Data in cases.json is JSON with two extensions: a JSON number without '.', 'e' or 'E' decodes as
// Go int (others as float64), {"$float64": n} / {"$int64": n} force those types, and
// {"$time": "RFC 3339"} is a UTC time.Time (a JavaScript Date in the spec).
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"text/template"
	"time"

	"golang.org/x/text/cases"
	"golang.org/x/text/language"
)

// fixedNow is the clock the TypeScript spec injects too (JavaScript dates have millisecond precision).
var fixedNow = time.Date(2026, time.March, 7, 14, 5, 9, 123000000, time.UTC)

var funcs = template.FuncMap{
	"now": func() time.Time { return fixedNow },
	"date": func(layout string, t time.Time) string {
		return t.Format(layout)
	},
	"dateFormat": func(layout string, t time.Time) string {
		return t.Format(layout)
	},
	"lower": strings.ToLower,
	"upper": strings.ToUpper,
	"title": func(s string) string {
		return cases.Title(language.English).String(s)
	},
	"trim":       strings.TrimSpace,
	"trimPrefix": strings.TrimPrefix,
	"trimSuffix": strings.TrimSuffix,
	"replace":    strings.ReplaceAll,
	"contains":   strings.Contains,
	"hasPrefix":  strings.HasPrefix,
	"hasSuffix":  strings.HasSuffix,
	"default": func(defaultVal, val interface{}) interface{} {
		if val == nil || val == "" {
			return defaultVal
		}
		return val
	},
	"quote": func(s string) string {
		return fmt.Sprintf("%q", s)
	},
	"int": func(v interface{}) int {
		switch val := v.(type) {
		case int:
			return val
		case int64:
			return int(val)
		case float64:
			return int(val)
		case string:
			i, _ := strconv.Atoi(val)
			return i
		default:
			return 0
		}
	},
	"int64": func(v interface{}) int64 {
		switch val := v.(type) {
		case int:
			return int64(val)
		case int64:
			return val
		case float64:
			return int64(val)
		case string:
			i, _ := strconv.ParseInt(val, 10, 64)
			return i
		default:
			return 0
		}
	},
	"float":   toFloat64,
	"float64": toFloat64,
	"string": func(v interface{}) string {
		return fmt.Sprintf("%v", v)
	},
}

func toFloat64(v interface{}) float64 {
	switch val := v.(type) {
	case int:
		return float64(val)
	case int64:
		return float64(val)
	case float64:
		return val
	case string:
		f, _ := strconv.ParseFloat(val, 64)
		return f
	default:
		return 0
	}
}

type testCase struct {
	Name     string          `json:"name"`
	Template string          `json:"template"`
	Data     json.RawMessage `json:"data,omitempty"`
	Note     string          `json:"note,omitempty"`
}

type goError struct {
	Phase   string `json:"phase"` // "parse" or "exec"
	Message string `json:"message"`
	Reason  string `json:"reason"`
	Line    int    `json:"line"`
	Column  *int   `json:"column,omitempty"`  // exec errors only: 0-based byte column, as Go prints it
	Context string `json:"context,omitempty"` // exec errors only: the node Go names ("at <...>")
}

type golden struct {
	testCase
	Output *string  `json:"output,omitempty"`
	Error  *goError `json:"error,omitempty"`
}

var (
	parseErrRe = regexp.MustCompile(`(?s)^template: t:(\d+): (.*)$`)
	execErrRe  = regexp.MustCompile(`(?s)^template: t:(\d+):(\d+): executing "t" at <(.*?)>: (.*)$`)
)

func decode(raw json.RawMessage) interface{} {
	if len(raw) == 0 {
		return map[string]interface{}{}
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v interface{}
	if err := d.Decode(&v); err != nil {
		panic(err)
	}
	return convert(v)
}

func convert(v interface{}) interface{} {
	switch val := v.(type) {
	case json.Number:
		s := val.String()
		if strings.ContainsAny(s, ".eE") {
			f, err := val.Float64()
			if err != nil {
				panic(err)
			}
			if f == float64(int64(f)) {
				panic(fmt.Sprintf("integral float %s in data: write {\"$float64\": n} (JavaScript cannot tell it from an int)", s))
			}
			return f
		}
		i, err := strconv.Atoi(s)
		if err != nil {
			panic(err)
		}
		return i
	case []interface{}:
		for i := range val {
			val[i] = convert(val[i])
		}
		return val
	case map[string]interface{}:
		if len(val) == 1 {
			if n, ok := val["$float64"].(json.Number); ok {
				f, _ := n.Float64()
				return f
			}
			if n, ok := val["$int64"].(json.Number); ok {
				i, _ := n.Int64()
				return i
			}
			if s, ok := val["$time"].(string); ok {
				t, err := time.Parse(time.RFC3339Nano, s)
				if err != nil {
					panic(err)
				}
				return t.UTC()
			}
		}
		for k := range val {
			val[k] = convert(val[k])
		}
		return val
	}
	return v
}

func run(c testCase) golden {
	g := golden{testCase: c}
	tmpl, err := template.New("t").Funcs(funcs).Option("missingkey=error").Parse(c.Template)
	if err != nil {
		m := parseErrRe.FindStringSubmatch(err.Error())
		if m == nil {
			panic(fmt.Sprintf("%s: unexpected parse error shape: %v", c.Name, err))
		}
		line, _ := strconv.Atoi(m[1])
		g.Error = &goError{Phase: "parse", Message: err.Error(), Reason: m[2], Line: line}
		return g
	}
	var buf bytes.Buffer
	if err := tmpl.Execute(&buf, decode(c.Data)); err != nil {
		m := execErrRe.FindStringSubmatch(err.Error())
		if m == nil {
			panic(fmt.Sprintf("%s: unexpected exec error shape: %v", c.Name, err))
		}
		line, _ := strconv.Atoi(m[1])
		col, _ := strconv.Atoi(m[2])
		g.Error = &goError{Phase: "exec", Message: err.Error(), Reason: m[4], Line: line, Column: &col, Context: m[3]}
		return g
	}
	out := buf.String()
	g.Output = &out
	return g
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: oracle CASES.json > GOLDEN.json")
		os.Exit(2)
	}
	raw, err := os.ReadFile(os.Args[1])
	if err != nil {
		panic(err)
	}
	var cs []testCase
	if err := json.Unmarshal(raw, &cs); err != nil {
		panic(err)
	}
	seen := map[string]bool{}
	results := make([]golden, 0, len(cs))
	for _, c := range cs {
		if seen[c.Name] {
			panic("duplicate case name: " + c.Name)
		}
		seen[c.Name] = true
		results = append(results, run(c))
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(map[string]interface{}{
		"generator": "testdata/oracle/main.go with " + runtime.Version(),
		"now":       fixedNow.Format(time.RFC3339Nano),
		"cases":     results,
	}); err != nil {
		panic(err)
	}
}
