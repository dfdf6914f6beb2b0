package findings_test

import (
	"bufio"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/locate"
	"github.com/keyfindings/keyfindings/review"
	"github.com/keyfindings/keyfindings/source"
)

// fixtureTree holds synthetic sources shaped like the opencode files the
// catalog reads, with the expected spans marked in them (see its README).
const fixtureTree = "../testdata/catalog"

// span is an expected record location read from the fixture markers.
type span struct {
	path       string
	start, end int
	// shape is the shape that must locate it ("" for a definition
	// without shapes): want-start's second word.
	shape string
}

var marker = regexp.MustCompile(`^\s*//\s*want-(start|end|file):\s*(\S+)(?:\s+(\S+))?\s*$`)

// readMarkers collects the expected spans: want-start/want-end sit on the
// lines just outside a span (want-start: ID SHAPE names the shape that
// must locate it), want-file names a file cited whole.
func readMarkers(t *testing.T, root string) map[string]span {
	t.Helper()
	want := map[string]span{}
	open := map[string]span{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".ts") {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for n := 1; sc.Scan(); n++ {
			m := marker.FindStringSubmatch(sc.Text())
			if m == nil {
				continue
			}
			kind, id := m[1], m[2]
			switch kind {
			case "start":
				open[id] = span{path: rel, start: n + 1, shape: m[3]}
			case "end":
				s, ok := open[id]
				if !ok || s.path != rel {
					t.Fatalf("%s:%d: want-end: %s without a want-start in the same file", rel, n, id)
				}
				s.end = n - 1
				want[id] = s
				delete(open, id)
			case "file":
				if m[3] == "" {
					t.Fatalf("%s:%d: want-file needs an id and a path", rel, n)
				}
				data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(m[3])))
				if err != nil {
					t.Fatalf("%s:%d: %v", rel, n, err)
				}
				want[id] = span{path: m[3], start: 1, end: strings.Count(string(data), "\n")}
			}
			if _, dup := want[id]; dup && kind == "start" {
				t.Fatalf("%s:%d: two spans marked for %s", rel, n, id)
			}
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	for id, s := range open {
		t.Fatalf("%s: want-start: %s is never closed", s.path, id)
	}
	return want
}

// catalogFacts lists, per record, the facts the test pins down (as JSON):
// the values the claims rest on. Facts not listed are still produced; they
// are covered by the reviewed sections at the real pin.
var catalogFacts = map[string]map[string]string{
	"system-prompt-routing": {
		"rules": `[
			{"tests":["alpha"],"subject":"model.api.id","prompt":"PROMPT_ALPHA","file":"packages/opencode/src/session/prompt/alpha.txt",
			 "cond":{"op":"call","method":"includes","on":{"op":"ref","name":"model.api.id"},"args":[{"op":"string","value":"alpha"}]}},
			{"tests":["wide"],"subject":"model.api.id","prompt":"PROMPT_WIDE","file":"packages/opencode/src/session/prompt/wide.txt",
			 "cond":{"op":"call","method":"includes","on":{"op":"ref","name":"model.api.id"},"args":[{"op":"string","value":"wide"}]},
			 "rules":[{"tests":["fast","quick"],"joined_by":"||","subject":"model.api.id","prompt":"PROMPT_WIDE_FAST","file":"packages/opencode/src/session/prompt/wide-fast.txt",
			  "cond":{"op":"or","args":[
			   {"op":"call","method":"includes","on":{"op":"ref","name":"model.api.id"},"args":[{"op":"string","value":"fast"}]},
			   {"op":"call","method":"includes","on":{"op":"ref","name":"model.api.id"},"args":[{"op":"string","value":"quick"}]}]}}]},
			{"tests":["lower"],"subject":"model.api.id.toLowerCase()","prompt":"PROMPT_LOWER","file":"packages/opencode/src/session/prompt/lower.txt",
			 "cond":{"op":"call","method":"includes","on":{"op":"call","method":"toLowerCase","on":{"op":"ref","name":"model.api.id"},"args":[]},"args":[{"op":"string","value":"lower"}]}}]`,
		"fallback":        `"packages/opencode/src/session/prompt/plain.txt"`,
		"fallback_prompt": `"PROMPT_PLAIN"`,
	},
	"system-prompt-files-prompt-alpha-txt": {
		"bytes": `70`, "lines": `2`, "prompt": `"PROMPT_ALPHA"`,
		"path":        `"packages/opencode/src/session/prompt/alpha.txt"`,
		"selected_by": `[["model.api.id.includes(\"alpha\")"]]`,
	},
	"system-prompt-files-prompt-wide-fast-txt": {
		"selected_by": `[["model.api.id.includes(\"wide\")","model.api.id.includes(\"fast\") || model.api.id.includes(\"quick\")"]]`,
	},
	"system-prompt-files-prompt-wide-txt":  {"selected_by": `[["model.api.id.includes(\"wide\")"]]`},
	"system-prompt-files-prompt-lower-txt": {"selected_by": `[["model.api.id.toLowerCase().includes(\"lower\")"]]`},
	"system-prompt-files-prompt-plain-txt": {"selected_by": `[[]]`, "bytes": `79`, "lines": `3`},
	"environment-block": {
		"env_lines": `["Model in use: ${model.api.id}","<env>","  Folder: ${ctx.directory}","  Today: ${new Date().toISOString()}","</env>"]`,
	},
	"instruction-loading": {
		"global_files":   `[{"file":"path.join(global.config, \"RULES.md\")"},{"file":"path.join(global.home, \".vendor\", \"VENDOR.md\")","gate":"!flags.skipVendorRules"}]`,
		"project_files":  `[{"name":"RULES.md"},{"name":"VENDOR.md","gate":"!flags.skipVendorRules"},{"name":"OLD.md"}]`,
		"url_timeout_ms": `2500`,
		"concurrency":    `[{"step":"read","limit":3},{"step":"fetch","limit":2}]`,
	},
	"instruction-urls": {"timeout_ms": `2500`, "method": `"get"`, "on_failure": `""`},
	"request-preparation": {
		"hooks":         `["fixture.system.rewrite","chat.params","chat.headers","fixture.after"]`,
		"option_layers": `["defaults","input.provider.options","input.agent.options"]`,
		"headers":       `["x-fixture-session","User-Agent","x-session"]`,
	},
	"tool-registry": {
		"builtin": `[{"tool":"invalid"},{"tool":"question","gate":"questionEnabled","gate_expr":{"op":"ref","name":"questionEnabled"}},
			{"tool":"shell"},{"tool":"read"},{"tool":"edit"},{"tool":"write"},{"tool":"patch"},{"tool":"search"},
			{"tool":"map","gate":"flags.experimentalMap && flags.client === \"cli\"",
			 "gate_expr":{"op":"and","args":[{"op":"ref","name":"flags.experimentalMap"},{"op":"===","args":[{"op":"ref","name":"flags.client"},{"op":"string","value":"cli"}]}]}}]`,
		"inits":            `[{"key":"invalid","var":"invalid"},{"key":"question","var":"question"},{"key":"shell","var":"shell"},{"key":"read","var":"read"},{"key":"edit","var":"edit"},{"key":"write","var":"writer"},{"key":"patch","var":"patch"},{"key":"search","var":"search"},{"key":"map","var":"map"}]`,
		"definitions":      `[{"var":"invalid","tool":"InvalidTool"},{"var":"question","tool":"QuestionTool"},{"var":"shell","tool":"ShellTool"},{"var":"read","tool":"ReadTool"},{"var":"edit","tool":"EditTool"},{"var":"writer","tool":"WriteTool"},{"var":"patch","tool":"PatchTool"},{"var":"search","tool":"SearchTool"},{"var":"map","tool":"MapTool"}]`,
		"locals":           `[{"name":"questionEnabled","value":{"op":"or","args":[{"op":"===","args":[{"op":"ref","name":"flags.client"},{"op":"string","value":"desktop"}]},{"op":"ref","name":"flags.enableQuestions"}]}}]`,
		"custom_tool_glob": `"{plugins,extras}/*.ts"`,
		"question_enabled": `"flags.client === \"desktop\" || flags.enableQuestions"`,
	},
	"tool-advertising": {
		"filters": `[{"tools":["SearchTool.id"],"keep_when":"webSearchEnabled(input.providerID, { exa: flags.enableExa })",
			  "cond":{"op":"===","args":[{"op":"ref","name":"tool.id"},{"op":"ref","name":"SearchTool.id"}]},
			  "keep":{"op":"call","function":"webSearchEnabled","args":[{"op":"ref","name":"input.providerID"},{"op":"object","fields":{"exa":{"op":"ref","name":"flags.enableExa"}}}]}},
			{"tools":["PatchTool.id"],"keep_when":"usePatch",
			  "cond":{"op":"===","args":[{"op":"ref","name":"tool.id"},{"op":"ref","name":"PatchTool.id"}]},"keep":{"op":"ref","name":"usePatch"}},
			{"tools":["EditTool.id","WriteTool.id"],"keep_when":"!usePatch",
			  "cond":{"op":"or","args":[{"op":"===","args":[{"op":"ref","name":"tool.id"},{"op":"ref","name":"EditTool.id"}]},{"op":"===","args":[{"op":"ref","name":"tool.id"},{"op":"ref","name":"WriteTool.id"}]}]},
			  "keep":{"op":"not","arg":{"op":"ref","name":"usePatch"}}}]`,
		"locals":             `[{"name":"usePatch","value":{"op":"and","args":[{"op":"call","method":"includes","on":{"op":"ref","name":"input.modelID"},"args":[{"op":"string","value":"big-"}]},{"op":"not","arg":{"op":"call","method":"includes","on":{"op":"ref","name":"input.modelID"},"args":[{"op":"string","value":"mini"}]}}]}}]`,
		"functions":          `[{"name":"webSearchEnabled","params":["providerID","flags"],"returns":{"op":"or","args":[{"op":"===","args":[{"op":"ref","name":"providerID"},{"op":"string","value":"house"}]},{"op":"ref","name":"flags.exa"}]}}]`,
		"use_patch":          `"input.modelID.includes(\"big-\") && !input.modelID.includes(\"mini\")"`,
		"hooks":              `["tool.definition"]`,
		"web_search_enabled": `"providerID === \"house\" || flags.exa"`,
	},
	"tool-descriptions-apply-patch-txt": {"tool": `"PatchTool"`, "id": `"patch"`, "lines": `2`, "used_in": `[]`},
	"tool-descriptions-task-txt":        {"tool": `"TaskTool"`, "id": `"task"`, "used_in": `["[DESCRIPTION, EXTRA].join(\"\\n\\n\")"]`},
	"tool-descriptions-websearch-txt":   {"tool": `"SearchTool"`, "id": `"search"`, "used_in": `["DESCRIPTION.replace(\"{{year}}\", \"2026\")"]`},
	"tool-descriptions-shell-txt":       {"imported_as": `"DESCRIPTION"`, "used_in": `["renderPrompt(DESCRIPTION, { shell: name, os: platform })"]`},
	// Prompt files, reminders, compaction and title (defs 40-49).
	"agent-prompt-files-prompt-explore-txt": {
		"agent": `"explore"`, "mode": `"subagent"`, "returned_by": `[]`,
		"permission": `"Permission.merge(defaults, Permission.fromConfig({ \"*\": \"deny\", read: \"allow\" }))"`,
	},
	"agent-prompt-files-prompt-compaction-txt": {"agent": `"compaction"`, "permission": `"Permission.fromConfig({ \"*\": \"deny\" })"`},
	"agent-prompt-files-generate-txt":          {"used_in": `["system = [PROMPT_GENERATE]"]`},
	"command-template-files-prompt-review":     {"command": `"Default.REVIEW"`, "subtask": `true`, "used_in": `["PROMPT_REVIEW.replace(\"${path}\", ctx.worktree)"]`},
	"reminder-files-plan-mode":                 {"used_in": `["PLAN_MODE.replace(\"${planInfo}\", () => \"No plan yet.\")"]`},
	"message-reminders": {
		"parts": `[{"text":"PROMPT_PLAN","when":["!input.flags.experimentalPlanMode","input.agent.name === \"plan\""]},
			{"text":"BUILD_SWITCH","when":["!input.flags.experimentalPlanMode","wasPlan && input.agent.name === \"build\""]},
			{"text":"PLAN_MODE.replace(\"${planInfo}\", () => \"No plan yet.\")","when":["input.agent.name === \"plan\" && last?.info.agent !== \"plan\""]}]`,
		"early_returns": `["(!userMessage)","(!input.flags.experimentalPlanMode)"]`,
		"stored_by":     `["sessions.updatePart"]`,
		"synthetic":     `[true]`,
	},
	"queued-user-text": {
		"runs_when":   `"step > 1 && lastFinished"`,
		"messages":    `"msgs"`,
		"skips":       `["(m.info.role !== \"user\" || m.info.id <= lastFinished.id)","(p.type !== \"text\" || p.ignored || p.synthetic)","(!p.text.trim())"]`,
		"wrapper":     `["<note>","The user sent the following message:","p.text","","Handle it, then carry on.","</note>"]`,
		"joined_with": `"\n"`,
	},
	"max-steps-notice":                   {"role": `"assistant"`, "notice": `"MAX_STEPS_PROMPT"`, "after": `"...modelMsgs"`, "last_step": `"step >= maxSteps"`},
	"loop-prompt-texts-max-steps-prompt": {"text": `"LAST STEP\n\nNo more tools. Say what is done and what is left."`},
	"compaction-overflow":                {"buffer": `10000`, "compare": `"count >= usable(input)"`, "disabled_when": `["(input.cfg.compaction?.auto === false)","(input.model.limit.context === 0)"]`},
	"compaction-prune": {
		"protect": `9000`, "minimum": `5000`, "protected_tools": `["skill","memo"]`, "recent_turns": `"(turns < 2)"`,
		"disabled_when": `["(!cfg.compaction?.prune)"]`,
	},
	"compaction-request": {
		"agent": `"compaction"`, "tools": `"{}"`, "system": `["[]"]`, "tool_output_max": `1500`, "tail_turns": `3`,
		"continue_text": `["Pictures were too big and were dropped; the previous request exceeded the provider's size limit.\n\n","Continue if you have next steps, otherwise ask."]`,
	},
	"title-generation": {"agent": `"title"`, "lead": `["Name this chat:\n"]`, "small": `true`, "system": `"[]"`},
	"tool-result-bash": {
		"templates":    `["Notes:\n${output.notes.join(\"\n\")}\n\n","${notes}Stopped: the time limit ran out.","${notes}Finished with status ${output.exit}."]`,
		"parts":        `["output.output","modelOutput(output)"]`,
		"output_texts": `["Gave up after ${input.limit} ms.","(empty)","[clipped]"]`,
	},
	"tool-result-write":    {"templates": `["${output.existed ? \"Replaced\" : \"Made\"} ${output.resource}.","Replaced","Made"]`},
	"tool-result-edit":     {"templates": `["Changed ${output.file}","Occurrences: ${output.count}","~~~diff"]`},
	"tool-result-glob":     {"templates": `["Nothing matched"]`},
	"tool-result-grep":     {"templates": `["Nothing matched","${output.length} hits","${match.path}#${match.line} ${match.text}"]`},
	"tool-result-question": {"templates": `["${q.text} -> ${answers[i]?.join(\"/\") || \"(none)\"}","(none)","Answers: ${pairs}."]`},
	"tool-result-read": {
		"tags":        `["<path>${target}</path>","<type>text</type>","<content>\n","\n</content>"]`,
		"line_prefix": `"${n + file.start}| ${text}"`,
		"notices": `[{"text":"\n\n(Stopped at ${MAX_BYTES_LABEL}; continue at ${file.next}.)","when":["file.cut"]},
			{"text":"\n\n(More lines follow; continue at ${file.next}.)","when":["!(file.cut)","file.more"]},
			{"text":"\n\n(That was the last line, ${file.count} in all.)","when":["!(file.cut)","!(file.more)"]}]`,
		"limits": `[{"name":"DEFAULT_READ_LIMIT","value":500},{"name":"MAX_LINE_LENGTH","value":300},{"name":"MAX_BYTES","value":8192}]`,
	},
	"tool-result-read-image": {
		"parts":         `[{"type":"text","text":"Picture attached","keys":["type","text"]},{"type":"file","keys":["type","data","mime"]}]`,
		"no_parts_when": `"output.encoding !== \"base64\" || !IMAGE_TYPES.has(output.mime)"`,
	},
	"tool-result-webfetch": {"parts": `[{"type":"text","text":"output.body","keys":["type","text"]}]`},
	"tool-output-bounds": {
		"max_lines": `1500`,
		"max_bytes": `16384`,
		"marker":    `"[cut here; the rest is in ${file}]"`,
		"layouts":   `["${cut.head}\n${marker}\n${cut.tail}","${cut.head}\n${marker}"]`,
	},
	"loop-tool-task": {"on_error": `["done.error ?? \"Subagent broke\"","Subagent stopped"]`},
	"tool-result-envelope": {
		"variants": `[{"type":"json","when":["output.content.length === 0"]},{"type":"text","when":["output.content.length === 1 && output.content[0]?.type === \"text\""]},{"type":"content","when":[]}]`,
	},
	"tool-result-text": {
		"branches":  `[{"types":["text","error"],"returns":"String(part.result.value)"}]`,
		"otherwise": `"encodeJson(part.result.value)"`,
	},
	"native-runtime-gate": {
		"provider_ids":         `["acme"]`,
		"provider_id_prefixes": `["house"]`,
		"sdk_packages":         `["@sdk/acme","@sdk/compatible"]`,
		"unsupported": `[{"reason":"unknown provider","when":["providerID !== \"acme\" && !providerID.startsWith(\"house\")"]},
			{"reason":"unknown package","when":["npm !== \"@sdk/acme\" && npm !== \"@sdk/compatible\""]},
			{"reason":"no key","when":["!apiKey"]}]`,
	},
	"reasoning-persistence": {
		"events":       `["reasoning-start","reasoning-delta","reasoning-end"]`,
		"orphan_delta": `"!(value.id in ctx.parts)"`,
	},
	"history-replay": {
		"placeholders":             `["[result removed]"]`,
		"empty_text_separator":     `"_"`,
		"dropped_for_other_model":  `["providerMetadata","callProviderMetadata"]`,
		"other_model_reasoning_as": `"text"`,
	},
	"session-export": {
		"command": `"dump [sessionID]"`,
		"options": `[{"name":"sessionID","kind":"positional","type":"string"},{"name":"sanitize","kind":"option","type":"boolean"}]`,
		"keys":    `["info","messages"]`,
	},
	"sdk-endpoint": {
		"base_url_sources":        `["options[\"baseURL\"]","model.api.endpoint"]`,
		"variable_placeholder":    `"\"{{\" + key + \"}}\""`,
		"env_placeholder_pattern": `"/\\{\\{([a-z]+)\\}\\}/g"`,
		"header_layers":           `["model.headers","options[\"headers\"]"]`,
	},
	"lowering-openai-chat": {
		"messages":           `[{"role":"tool","keys":["role","tool_call_id","content"],"content":"ProviderShared.toolResultText(part)"},{"role":"tool","keys":["role","tool_call_id","content"],"content":"\"\""}]`,
		"media_collected_in": `"pictures"`,
		"returns":            `["messages","pictures"]`,
	},
	"lowering-anthropic-messages": {
		"blocks":       `[{"type":"text"},{"type":"image"}]`,
		"image_source": `"base64"`,
		"not_content":  `"ProviderShared.toolResultText(part)"`,
	},
	"lowering-gemini": {
		"function_response_keys": `["name","response"]`,
		"response_keys":          `["name","content"]`,
		"content_sources":        `["ProviderShared.toolResultText(part)","part.result.text"]`,
		"media_part":             `["mimeType","data"]`,
	},
	"sampling-defaults-temperature": {
		"rules":    `[{"tests":["warm"],"value":0.7},{"tests":["cool"],"value":"undefined"},{"tests":["mixed"],"value":0.3,"rules":[{"tests":["hot","hotter"],"value":1}]}]`,
		"fallback": `"undefined"`,
		"subject":  `"model.id.toLowerCase()"`,
	},
	"sampling-defaults-topk": {"function": `"topK"`, "rules": `[{"tests":["warm"],"value":30}]`},
	"output-token-limit": {
		"output_token_max": `12000`,
		"cap_parameter":    `"OUTPUT_TOKEN_MAX"`,
		"returns":          `["Math.min(model.limit.output, outputTokenMax) || outputTokenMax"]`,
	},
	"prompt-caching-marks": {
		"marked": `["msgs.filter((msg) => msg.role === \"system\").slice(0, 1)","msgs.filter((msg) => msg.role !== \"system\").slice(-3)"]`,
		"cache_marks": `[{"provider":"acme","mark":{"op":"object","fields":{"cacheControl":{"op":"object","fields":{"type":{"op":"string","value":"short"}}}}}},
			{"provider":"rocks","mark":{"op":"object","fields":{"cachePoint":{"op":"object","fields":{"type":{"op":"string","value":"plain"}}}}}}]`,
		"message_level_when": `{"op":"===","args":[{"op":"ref","name":"model.providerID"},{"op":"string","value":"acme"}]}`,
	},
	"unsupported-media": {
		"replacements": `["Cannot open ${modality} here."]`,
		"modalities":   `[{"modality":"image","when":"mime.startsWith(\"image/\")"},{"modality":"audio","when":"mime === \"application/x-sound\""}]`,
	},
	"message-normalisation": {
		"id_scrubs":        `[{"pattern":"/[^a-z0-9]/g","with":"-"},{"pattern":"/[^a-z]/g","with":""}]`,
		"padded_id_length": `7`,
		"inserted_texts":   `[{"text":"Okay.","when":["model.providerID === \"breeze\"","msg.role === \"tool\""]}]`,
	},
	"provider-option-defaults": {
		"sets": `[{"option":"store","value":{"op":"bool","value":false},"when":["input.model.providerID === \"acme\""]},
			{"option":"reasoningEffort","value":{"op":"string","value":"low"},"when":["input.model.api.id.includes(\"deep\")"]},
			{"option":"depthConfig","value":{"op":"object","fields":{"shown":{"op":"bool","value":true}}},"when":["input.model.api.id.includes(\"deep\")"]},
			{"option":"depth","under":"depthConfig","value":{"op":"number","value":3},"when":["input.model.api.id.includes(\"deep\")"]}]`,
		"returns": `[{"value":{"op":"ref","name":"result"},"when":["input.model.api.id.includes(\"deep\")","input.model.providerID === \"rocks\""]},{"value":{"op":"ref","name":"result"},"when":[]}]`,
	},
	"small-model-options": {"locals": `[{"name":"small","value":"Object.values(model.variants ?? {})[0] ?? {}"}]`},
	"noop-tool":           {"tool": `"_noop"`, "description": `"Placeholder; ignore."`, "parameters": `["why"]`},
	"tool-strict-mode":    {"strict": `true`},
	"tool-order":          {"sort": `"([a], [b]) => b.localeCompare(a)"`},
	"system-text-order":   {"order": `["rules","env","skills"]`, "structured_output_line": `"Answer with the Shape tool only."`},
	"mcp-tool-names":      {"separator": `"__"`, "sanitize_patterns": `[{"pattern":"/[^a-z]/g","with":"-"}]`},
	"mcp-instructions": {
		"lines":     `["<servers>","[${item.name}] ${item.text}","</servers>"]`,
		"joined_by": `"\n\n"`,
		"kept_when": `"item.tools.length > 1"`,
	},
	"tool-call-repair": {"repair_tool": `"broken"`, "input_fields": `["name","reason"]`},
	"invalid-tool":     {"on_error": `"Could not run that call: ${params.reason}"`},
	"tool-parameters-multichange": {
		"tool":   `"multichange"`,
		"fields": `[{"name":"file","schema":"z.string().describe(\"Which file\")"},{"name":"count","schema":"z.number().describe(\"How many\").optional()"}]`,
	},
	"tool-parameters-mend": {
		"tool":   `"mend"`,
		"fields": `[{"name":"diff","schema":"z.string().describe(\"The changes, as a diff\")"},{"name":"dryRun","schema":"z.boolean().describe(\"Only report what would change\").optional()"}]`,
	},
	"tool-parameters-survey": {
		"tool":   `"survey"`,
		"fields": `[{"name":"root","schema":"z.string().describe(\"Where to start\")"},{"name":"depth","schema":"z\n    .number()\n    .describe(\u0060How deep to go (at most ${LIMIT})\u0060)\n    .optional()"}]`,
	},
	"tool-parameters-copy": {
		"tool":   `"copy"`,
		"fields": `[{"name":"source","schema":"z.string().describe(\"Where to copy from\")"},{"name":"shallow","schema":"z.boolean().optional().describe(\"Skip the history\")"}]`,
	},
	"tool-parameters-execute": {"fields": `[{"name":"script","schema":"Schema.String.annotate({ description: \"Script to run\" })"},{"name":"budget","schema":"Schema.optional(Schema.Number).annotate({ description: \"Seconds allowed\" })"}]`},
	"tool-schema-conversion":  {"enum_values": `"value.map((v) => String(v))"`},
	"mcp-resource-tools": {
		"names":               `[{"key":"list","name":"show_resources"},{"key":"read","name":"open_resource"}]`,
		"tools":               `[{"key":"list","description":"Shows what the servers offer.","parameters":["host"]},{"key":"read","description":"Opens one resource.","parameters":["host","path"]}]`,
		"permission_patterns": `["mcp:${args.host}:any","mcp:${args.host}:${args.path}"]`,
	},
	"user-input-parts":  {"synthetic_texts": `[{"text":"\u0060Looked at ${part.filename}\u0060","when":["part.type === \"file\""]},{"text":"yield* input.read(part.filename)","when":["part.type === \"file\""]}]`},
	"structured-output": {"tool_name": `"Shape"`, "on_success": `"Got it."`, "description": `"Give the answer here."`},
}

// TestCatalogOnFixtures builds the embedded catalog against the fixture
// tree: every marked span must be located exactly, nothing else may be
// produced, and the pinned facts must hold.
func TestCatalogOnFixtures(t *testing.T) {
	cat, err := findings.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	x, err := locate.Compile(cat)
	if err != nil {
		t.Fatal(err)
	}
	res, err := x.Extract(source.NewDirSnapshot(fixtureTree), locate.Meta{Repo: "https://github.com/anomalyco/opencode"})
	if err != nil {
		t.Fatal(err)
	}
	want := readMarkers(t, fixtureTree)
	got := map[string]*findings.Record{}
	for _, r := range res.Document.Findings {
		got[r.ID] = r
		if _, ok := want[r.ID]; !ok {
			t.Errorf("%s: %s, but no fixture marks it (problem: %s)", r.ID, r.Status, deref(r.Problem))
		}
	}
	ids := make([]string, 0, len(want))
	for id := range want {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		w := want[id]
		t.Run(id, func(t *testing.T) {
			r := got[id]
			if r == nil {
				t.Fatalf("no record; the fixture marks %s lines %d-%d", w.path, w.start, w.end)
			}
			if r.Status != findings.StatusLocated {
				t.Fatalf("status %s (%s), want located", r.Status, deref(r.Problem))
			}
			if r.Location.Path != w.path || r.Location.Lines.Start != w.start || r.Location.Lines.End != w.end {
				t.Errorf("located %s lines %d-%d, fixture marks %s lines %d-%d", r.Location.Path, r.Location.Lines.Start, r.Location.Lines.End, w.path, w.start, w.end)
			}
			if r.Shape != w.shape {
				t.Errorf("located by shape %q, fixture marks shape %q", r.Shape, w.shape)
			}
			if len(r.Warnings) > 0 {
				t.Errorf("warnings: %v", r.Warnings)
			}
			for name, js := range catalogFacts[id] {
				var v any
				if err := json.Unmarshal([]byte(js), &v); err != nil {
					t.Fatalf("bad expectation for %s: %v", name, err)
				}
				if !findings.EqualFacts(findings.Facts{name: v}, findings.Facts{name: r.Facts[name]}) {
					have, _ := json.Marshal(r.Facts[name])
					t.Errorf("fact %s = %s\nwant %s", name, have, js)
				}
			}
		})
	}
	for id := range catalogFacts {
		if _, ok := want[id]; !ok {
			t.Errorf("facts are pinned for %s, which no fixture marks", id)
		}
	}
}

// indexSections reads the index's section list (templates/sections.txt).
func indexSections(t *testing.T) map[string]bool {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "templates", "sections.txt"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, line := range strings.Split(string(b), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			out[line] = true
		}
	}
	return out
}

// TestCatalogCoverage checks that every definition of the catalog has a
// fixture, and that each is well-formed: a known section, prose, and a
// reviewed section as the file's last key.
func TestCatalogCoverage(t *testing.T) {
	cat, err := findings.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	want := readMarkers(t, fixtureTree)
	sections := indexSections(t)
	for _, d := range cat.Definitions {
		covered := false
		for id := range want {
			if id == d.ID || strings.HasPrefix(id, d.ID+"-") && d.Expect == findings.ExpectAll {
				covered = true
			}
		}
		if !covered {
			t.Errorf("%s: no fixture marks a span for it", d.ID)
		}
		if !sections[d.Section] {
			t.Errorf("%s: section %q is not one of the index sections", d.ID, d.Section)
		}
		// NN-<id>.yaml: the number orders the records within their section.
		if !regexp.MustCompile(`^[0-9]{2}-` + regexp.QuoteMeta(d.ID) + `\.yaml$`).MatchString(d.Source) {
			t.Errorf("%s: file %s, want NN-%s.yaml", d.ID, d.Source, d.ID)
		}
		if len(d.Reviewed) == 0 {
			t.Errorf("%s: no reviewed facts", d.ID)
		}
		data, err := os.ReadFile(filepath.Join("defs", d.Source))
		if err != nil {
			t.Fatal(err)
		}
		out, err := review.RewriteReviewed(data, d.Reviewed)
		if err != nil {
			t.Errorf("%s: %v", d.ID, err)
		} else if string(out) != string(data) {
			t.Errorf("%s: the reviewed section is not in the form review --accept writes", d.ID)
		}
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
