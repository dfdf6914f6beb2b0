package prcheck

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/itchyny/gojq"
)

// stubEnv names the state file of the stub gh. When it is set, the test
// binary is the stub: the gh on the script's PATH execs it.
const stubEnv = "KEYFINDINGS_GH_STUB"

// ghState is what the stub gh serves and records, kept in a JSON file
// between the calls of one test.
type ghState struct {
	Comments []ghComment       `json:"comments"`
	Pulls    map[string]ghPull `json:"pulls"`
	Calls    []ghCall          `json:"calls"`
}

type ghComment struct {
	ID      int64  `json:"id"`
	Body    string `json:"body"`
	User    ghUser `json:"user"`
	HTMLURL string `json:"html_url"`
}

type ghUser struct {
	Login string `json:"login"`
	Type  string `json:"type"`
}

type ghPull struct {
	Number int `json:"number"`
	Head   struct {
		SHA string `json:"sha"`
	} `json:"head"`
}

// ghCall is one recorded `gh api` call.
type ghCall struct {
	Method   string `json:"method"`
	Path     string `json:"path"`
	Body     string `json:"body,omitempty"`
	Paginate bool   `json:"paginate,omitempty"`
	Token    bool   `json:"token"`
}

var (
	listRoute  = regexp.MustCompile(`^repos/[^/]+/[^/]+/issues/([0-9]+)/comments$`)
	patchRoute = regexp.MustCompile(`^repos/[^/]+/[^/]+/issues/comments/([0-9]+)$`)
	pullRoute  = regexp.MustCompile(`^repos/[^/]+/[^/]+/pulls/([0-9]+)$`)
)

// ghStub behaves as `gh api` for the routes the script uses, against the
// state file, and returns the exit status.
func ghStub(stateFile string, args []string) int {
	st, err := loadState(stateFile)
	if err == nil {
		err = st.serve(args)
	}
	if serr := saveState(stateFile, st); err == nil {
		err = serr
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gh:", err)
		return 1
	}
	return 0
}

func loadState(file string) (*ghState, error) {
	st := &ghState{}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, st); err != nil {
		return nil, err
	}
	return st, nil
}

func saveState(file string, st *ghState) error {
	if st == nil {
		return nil
	}
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(file, data, 0o644)
}

func (st *ghState) serve(args []string) error {
	if len(args) == 0 || args[0] != "api" {
		return fmt.Errorf("stub knows only gh api, got %q", args)
	}
	call := ghCall{Token: os.Getenv("GH_TOKEN") != ""}
	fields := map[string]string{}
	var jq string
	for i := 1; i < len(args); i++ {
		a := args[i]
		next := func() (string, error) {
			if i+1 >= len(args) {
				return "", fmt.Errorf("%s needs a value", a)
			}
			i++
			return args[i], nil
		}
		var err error
		switch a {
		case "--paginate":
			call.Paginate = true
		case "-X", "--method":
			call.Method, err = next()
		case "--jq", "-q":
			jq, err = next()
		case "-F", "--field":
			var kv string
			if kv, err = next(); err == nil {
				k, v, _ := strings.Cut(kv, "=")
				if file, ok := strings.CutPrefix(v, "@"); ok {
					data, rerr := os.ReadFile(file)
					if rerr != nil {
						return rerr
					}
					v = string(data)
				}
				fields[k] = v
			}
		default:
			if strings.HasPrefix(a, "-") || call.Path != "" {
				return fmt.Errorf("stub does not know argument %q", a)
			}
			call.Path = a
		}
		if err != nil {
			return err
		}
	}
	if call.Method == "" {
		call.Method = "GET"
		if len(fields) > 0 {
			call.Method = "POST"
		}
	}
	call.Body = fields["body"]
	st.Calls = append(st.Calls, call)
	resp, err := st.route(call)
	if err != nil {
		return err
	}
	return printJQ(resp, jq)
}

// route answers one call, changing the comments as GitHub would.
func (st *ghState) route(c ghCall) (any, error) {
	path, _, _ := strings.Cut(c.Path, "?")
	switch {
	case listRoute.MatchString(path) && c.Method == "GET":
		return append([]ghComment{}, st.Comments...), nil
	case listRoute.MatchString(path) && c.Method == "POST":
		id := int64(1000 + len(st.Comments))
		cm := ghComment{ID: id, Body: c.Body, User: ghUser{"github-actions[bot]", "Bot"}, HTMLURL: "https://example.com/c/" + strconv.FormatInt(id, 10)}
		st.Comments = append(st.Comments, cm)
		return cm, nil
	case patchRoute.MatchString(path) && c.Method == "PATCH":
		id, _ := strconv.ParseInt(patchRoute.FindStringSubmatch(path)[1], 10, 64)
		for i := range st.Comments {
			if st.Comments[i].ID == id {
				st.Comments[i].Body = c.Body
				return st.Comments[i], nil
			}
		}
	case pullRoute.MatchString(path) && c.Method == "GET":
		if p, ok := st.Pulls[pullRoute.FindStringSubmatch(path)[1]]; ok {
			return p, nil
		}
	default:
		return nil, fmt.Errorf("stub has no route %s %s", c.Method, c.Path)
	}
	return nil, fmt.Errorf("Not Found (HTTP 404): %s %s", c.Method, c.Path)
}

// printJQ prints resp as gh does: through the --jq filter (gojq, as gh
// uses), strings raw and other values as JSON, one per line.
func printJQ(resp any, filter string) error {
	data, err := json.Marshal(resp)
	if err != nil {
		return err
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	if filter == "" {
		fmt.Println(string(data))
		return nil
	}
	q, err := gojq.Parse(filter)
	if err != nil {
		return err
	}
	it := q.Run(v)
	for {
		out, ok := it.Next()
		if !ok {
			return nil
		}
		if err, ok := out.(error); ok {
			return err
		}
		if s, ok := out.(string); ok {
			fmt.Println(s)
			continue
		}
		b, err := gojq.Marshal(out)
		if err != nil {
			return err
		}
		fmt.Println(string(b))
	}
}
