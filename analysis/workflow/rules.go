package workflow

import (
	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/markdown"
)

const gateExample = "```markdown\n<UserCheckpoint purpose=\"authorize implementation\" agent={props.planner} material={plan} as=\"authorization\" />\n<If condition={authorization.proceed}>\n  <Implementation plan={plan} authorization={authorization} as=\"implementation\" />\n  <Else>\n  Stopped: implementation was not authorized.\n  </Else>\n</If>\n```"

var (
	RuleUngatedTransition = &analysis.Rule{
		ID:       "workflow/ungated-transition",
		Summary:  "A transition after a checkpoint is not gated on the user's proceed.",
		Severity: analysis.Error,
		Doc: "A checkpoint asks the user whether the workflow may go on: a `<UserCheckpoint … as=\"cp\" />`, or " +
			"any value component whose `returns` has a boolean `proceed`. After it, in the same body, every " +
			"*transition* — a `<Prompt>`, a `<Session.Launch>`, a repository component (a stage such as " +
			"`<Planning>`; an unresolved or unknown component counts as one), or a durable effect (`<Git.*>`, " +
			"`<PullRequest>`, `<Issue>`) — must sit inside the then-branch of an `<If>` whose condition requires " +
			"`cp.proceed`, alone or in a conjunction (`cp.proceed && verdict.passed`), or in the `<Else>` of an " +
			"`<If condition={!cp.proceed}>`. Otherwise a user answering `proceed: false` stops nothing.\n\n" +
			"XMD runs only the branch a condition selects, so the engine never notices: this is the static check. " +
			"A transition in the `<Else>` of the gate runs exactly when the user declined. Inside a `<Loop>`, the " +
			"transitions before the checkpoint run again on the next iteration unless every declined path " +
			"`<Break>`s out, so they are checked too. An `<If>` that encloses the checkpoint itself is evaluated " +
			"before the user answers and gates nothing. Pure elements (`Let`, `Json`, `Parse`, `Each`, `If`, " +
			"`Loop`, `Break`, `Output`, `Return`, `Content`) are not transitions.\n\n" +
			"Each finding names the checkpoint the transition escapes. The code action wraps the transition in " +
			"`<If condition={cp.proceed}>…</If>`; usually the whole rest of the flow belongs in that branch:\n\n" +
			gateExample,
	}
	RuleUnboundCheckpoint = &analysis.Rule{
		ID:       "workflow/unbound-checkpoint",
		Summary:  "A checkpoint is invoked without `as`, so nothing can branch on its decision.",
		Severity: analysis.Error,
		Doc: "A checkpoint's decision reaches the caller only through `as`: `<UserCheckpoint … as=\"cp\" />` " +
			"binds it, and `<If condition={cp.proceed}>` gates what follows. Without `as` the decision is " +
			"discarded (a value component invoked without `as` is even an error), and no transition after it " +
			"can be gated. The finding lists the transitions that follow. The code action adds `as`.",
	}
	RuleCheckpointNoDecision = &analysis.Rule{
		ID:       "workflow/checkpoint-without-decision",
		Summary:  "A checkpoint is a text component: it returns prose, not a decision.",
		Severity: analysis.Error,
		Doc: "A checkpoint must return a decision a caller can branch on: its component declares `returns` with " +
			"a boolean `proceed` and ends with one top-level `<Return value={…} />`. A text component (no " +
			"`returns`) returns its rendered Markdown, so `cp.proceed` is always undefined and no gate on it " +
			"can ever open — or, written without a gate, the flow goes on whatever the user said. This was the " +
			"exact defect of the adversarial-implementation workflow before its gating commit.\n\n" +
			"baton flags the invocation (when it can read the component) and the component file itself (a file " +
			"whose name ends in `Checkpoint`). Declare the decision:\n\n" +
			"```yaml\nreturns:\n  proceed: { type: boolean }\n  rationale: { type: string }\n```\n\n" +
			"and replace the `<Output>` region by `<Return value={{ proceed: decision.proceed, rationale: decision.rationale }} />`.",
	}
	RuleBarePropReference = &analysis.Rule{
		ID:       "workflow/bare-prop-reference",
		Summary:  "A prop is read by its bare name, the spelling before #372.",
		Severity: analysis.Warning,
		Doc: "Before executable.md #372, a component's props were also bound as bare names, so " +
			"`agent={planner}` read the `planner` prop. On main, props live only under `props`: a bare " +
			"`planner` in an expression is an unbound name (the expression fails), and `{planner}` in text is " +
			"left verbatim. baton lints against main and says when a bare name matches a declared prop. The " +
			"quick fix writes `props.planner`.",
	}
	RuleBindingMaybeUnset = &analysis.Rule{
		ID:       "workflow/binding-maybe-unset",
		Summary:  "A name bound only inside a conditional branch is read outside an equivalent one.",
		Severity: analysis.Warning,
		Doc: "`<If>` opens no scope: a binding its taken branch makes is readable after `</If>`. But the untaken " +
			"branch binds nothing, so a name bound only under `<If condition={cp.proceed}>` is unset after it when " +
			"the user declined (and an expression reading it fails; a placeholder is left verbatim).\n\n" +
			"A read is fine under an equivalent gate: a then-branch of an `<If>` whose condition includes every " +
			"conjunct of the binding's (`cp.proceed && x` covers `cp.proceed`), or the `<Else>` of the same " +
			"condition; and a name bound in both branches of one `<If>` is bound after it. Read it under the " +
			"same gate, or bind a fallback in the other branch.",
	}
	RuleUndeclaredProp = &analysis.Rule{
		ID:       "workflow/undeclared-prop",
		Summary:  "`props.x` reads a prop the front matter does not declare.",
		Severity: analysis.Error,
		Doc: "`{props.x}` in text interpolates a declared, validated prop; for an undeclared `x` it renders as " +
			"empty text, silently (in an inline code span too: write `\\{props.x}` to show it literally). In an " +
			"expression, `props.x` is `undefined`. The props map is closed, so no caller can supply it either.\n\n" +
			"Declare it under `props` (`x: { type: string }`) or fix the name. The code action declares it with " +
			"the empty schema `{}`.",
	}
	RulePropsDeclaration = &analysis.Rule{
		ID:       "workflow/props-declaration",
		Summary:  "The front matter's props declaration is invalid.",
		Severity: analysis.Error,
		Doc: "`props` is either a map of prop names to subschemas (closed), with a top-level `required` naming " +
			"some of them, or a full object schema (marked by `type` or `$schema`) with its own `required`. The " +
			"engine refuses, when the component loads: a `required` name the map does not declare (it could " +
			"never be supplied), a `required` that is not a list (`required: topic`, an empty `required:`; the quick " +
			"fix writes `required: [topic]`), a name its YAML reads as a number, a boolean or null (`required: [1]`, " +
			"even beside a prop `\"1\"`; the quick fix quotes it), a top-level `required` beside a full schema or " +
			"without `props` (an empty one or `[]` included), and a prop named " +
			"`slot` or `as` (reserved: the engine consumes them); an empty `props:` or one that is not a mapping " +
			"(`expected a JSON object, got null`), a prop declared by a bare type name (`topic: string`: `prop " +
			"\"topic\" must declare a JSON Schema object or boolean`; the quick fix writes `topic: {type: string}`), " +
			"and a full schema whose `$schema` is not draft-07's, whose `type` is not `object`, whose `properties` " +
			"is not a mapping, or that is asynchronous (`$async: true`) " +
			"(packages/core/src/frontmatter.ts, parsePropsSchema, normalizeProps and parseRequiredNames; " +
			"packages/core/src/validate.ts, enforceRootContract and compilePropsSchema).\n\n" +
			"It then compiles the schema with Ajv in strict mode (packages/core/src/validate.ts, compilePropsSchema: " +
			"`invalid props schema: …`), which refuses, and baton with it: a keyword Ajv does not know (`example:` — " +
			"JSON Schema's is `examples: [ … ]`), a `type` JSON Schema has not (`type: int` for `integer`), " +
			"`required: true` on a property (`required` is a list of names on the object), a keyword for another " +
			"type than the schema's or in a schema with no type (`minLength` on an array, `items` without " +
			"`type: array`: strictTypes), a union type other than a type and `\"null\"`, `nullable` without `type`, " +
			"`then`/`else` without `if`, a `default` on a full schema's root, a `required` naming a property its `properties` do not declare " +
			"(strictRequired), a `properties`, `patternProperties`, `definitions` or `dependencies` that is not a " +
			"mapping (the draft-07 meta-schema), and `$async` on a part of the schema Ajv compiles (`async schema " +
			"in sync schema`). A schema with a `$ref` is not read, nor what it refers to.\n\n" +
			"The document a command starts gets a command-line option and an environment variable for each prop with a " +
			"scalar (or scalar-array) schema: `topicName` is `--props-topic-name` and `XMD_PROPS_TOPIC_NAME`. `xmd run` and " +
			"`xmd workflow start` refuse, before anything runs, a document two of whose props make the same one " +
			"(packages/cli/src/props.ts, buildBindings: `properties \"topicName\" and \"topic_name\" both generate " +
			"--props-topic-name`); rename one. A component's props make none, so this is checked only on the root of a " +
			"workflow run (a document declaring a workflow bundle, or one `workflow.mode: workflow` names that no bundle " +
			"lists), the one document baton knows a command starts.\n\n" +
			"The same commands also read that root's whole props schema with zod's JSON Schema reader (packages/cli/src/props.ts, " +
			"convertRoot: zod's `fromJSONSchema`, as draft-07 and then as 2020-12), which reads less than Ajv. They refuse the " +
			"document (`cannot read the document's declared props: …`) for a `not` other than `not: {}`, an `if` (with its `then` and `else`), " +
			"a `$ref` outside the document, or a `$ref` that names no member of `definitions` (`#/definitions/Name`; a `#/properties/…` " +
			"pointer, or any reference beside a `$defs`, which zod looks the name up in), anywhere zod's reader goes: every " +
			"property, item and `additionalProperties` schema, and a definition a `$ref` names. A root of type object that has " +
			"`propertyNames`, `patternProperties`, `anyOf`, `oneOf`, a non-empty `allOf` or `readOnly: true` converts to something " +
			"other than an object, which they refuse too (`the document's declared props must be an object schema`). Write " +
			"the constraint another way (`enum`, `pattern`, a narrower type), or check it in the document.",
		Follows: []string{
			"executable.md packages/cli/src/props.ts convertRoot (zod's fromJSONSchema)",
			"executable.md packages/core/src/frontmatter.ts parsePropsSchema",
			"executable.md packages/core/src/frontmatter.ts parseRequiredNames",
			"executable.md packages/core/src/validate.ts enforceRootContract",
			"executable.md packages/core/src/validate.ts compilePropsSchema (Ajv strict mode)",
			"executable.md packages/cli/src/props.ts buildBindings (a root's props make one option and variable each)",
		},
	}
	RuleUnknownProp = &analysis.Rule{
		ID:       "workflow/unknown-prop",
		Summary:  "A component is invoked with a prop it does not declare.",
		Severity: analysis.Error,
		Doc: "A component's props are closed: an undeclared prop fails validation when the invocation runs " +
			"(a component without `props` accepts none). Because XMD validates only what execution reaches, a " +
			"typo in an untaken branch is found only here. baton reads the component the name resolves to; " +
			"`as` and `slot` are not props. Fix the name, or declare the prop in the component.\n\n" +
			"The components the engine and its hosts register (`Prompt`, `File`, `Test`, `Git.Add`, " +
			"`PullRequest`, …) declare their props in TypeScript, with the same closed schemas. baton keeps them " +
			"as data, each with the file and constant the engine declares it in (analysis/workflow/registered.json, " +
			"checked against the engine's source by a test), and checks an invocation of one as it checks one of a " +
			"component file: `<Prompt txt=\"…\">`, `<Test nam=\"…\">` and `<File />` without `path` fail the " +
			"engine's prop validation. A prop the registration captures (`<Json value>`, an assertion's `actual` " +
			"and `expected`, `<AssertThrows message>`) is handed over unevaluated and is no schema's " +
			"(packages/core/src/expand.ts, expandFunctionComponent). Inside the testing package's `<AssertThrows>` " +
			"the failure is what the test asserts, and a tag never closed is text: neither is reported.",
	}
	RuleMissingRequiredProp = &analysis.Rule{
		ID:       "workflow/missing-required-prop",
		Summary:  "A component is invoked without a prop it requires.",
		Severity: analysis.Error,
		Doc: "A prop named in the component's `required` (without a `default`) must be passed; the engine " +
			"otherwise fails the invocation's prop validation before the component's body runs (a printed " +
			"error, or a failed run under a throwing error mode), when execution reaches it. baton checks every " +
			"branch. A prop given only by a `{...spread}` is missing too: the engine's scanner drops a spread " +
			"entirely (packages/core/src/scanner.ts, parseAttributes: \"We don't evaluate spread props — just skip " +
			"them\"), so `<Comp {...{name: \"x\"}} />` passes no `name` (see workflow/spread-dropped). A registered " +
			"component's required props are the engine's registration's (`<File />` needs `path`, `<Repository>` " +
			"`name` and `url`; see workflow/unknown-prop), and the captures it refuses to run without, with a " +
			"printed error of its own: an assertion's operands (`<AssertEquals>` needs `actual`, `<AssertMatch>` " +
			"`actual` and `expected`, which children may give instead where the assertion takes them; " +
			"packages/testing/src/assertions.ts, assertionComponent), `<Json value>` and `<AssertThrows message>`.\n\n" +
			"A test document is invoked too: `xmd test` runs each `*.test.md` as a root with no props (it takes no " +
			"`--props`), and the engine validates a root's props before anything runs (packages/core/src/execute.ts, " +
			"documentWorkflow), so a prop its front matter requires with no `default` fails the document " +
			"(`Prop validation failed for <__root__ />: \"/topic\" must have required property 'topic'`). Give it a " +
			"default, or do not require it.",
		Follows: []string{
			"executable.md packages/core/src/execute.ts documentWorkflow (a test document's root props)",
		},
	}
	RuleReturnValue = &analysis.Rule{
		ID:       "workflow/return-value",
		Summary:  "A `<Return>`'s literal value does not match the component's declared `returns`.",
		Severity: analysis.Error,
		Doc: "A value component's `<Return value>` is validated against its `returns` every time the component " +
			"is invoked (packages/core/src/expand.ts, resolveReturnValue; packages/core/src/validate.ts, " +
			"validateReturnValue: Ajv, no type coercion, defaults filled, formats not asserted). A value that " +
			"does not match fails the invocation: `<Return value=\"yes\" />` against `returns: {type: boolean}` is " +
			"`Return validation failed for <Confirm />: (root) must be boolean`, and the `returns` shorthand " +
			"(`returns: {ok: {type: boolean}}`) is a closed object whose every property is required, so " +
			"`<Return value={{ ok: true, note: \"x\" }} />` fails too.\n\n" +
			"baton checks the values it knows before anything runs, read as the engine's scanner reads them " +
			"(see workflow/prop-value): a quoted value is a string, a bare attribute `true`, an expression that is " +
			"a JSON literal its value. An expression the engine evaluates when the body runs " +
			"(`value={decision}`) depends on what runs, and is not checked.",
		Follows: []string{
			"executable.md packages/core/src/expand.ts resolveReturnValue",
			"executable.md packages/core/src/validate.ts validateReturnValue (ReturnValidationError)",
		},
	}
	RulePropValue = &analysis.Rule{
		ID:       "workflow/prop-value",
		Summary:  "A prop's value does not match the JSON Schema its component declares, or one of the engine's components refuses it.",
		Severity: analysis.Error,
		Doc: "A component's `props` are JSON Schema (draft-07): a map of prop names to subschemas, or a full " +
			"object schema. The engine validates every invocation's props against it before the component's " +
			"body runs (packages/core/src/validate.ts, validateProps: Ajv, no type coercion, formats not " +
			"asserted) and fails the invocation when one does not match — `<Card title={42} />` against " +
			"`title: { type: string }` is `Prop validation failed for <Card />: \"/title\" must be string`, a " +
			"printed error or, under a throwing error mode, a failed run. It decides this when execution " +
			"reaches the element; baton checks every branch.\n\n" +
			"baton checks the values it knows before anything runs, read as the engine's scanner reads them " +
			"(packages/core/src/scanner.ts, parseAttributes and parseExpressionValue): a quoted value is a " +
			"string (`count=\"3\"` is the string \"3\", never a number), a bare attribute `true`, and an " +
			"expression that is a JSON literal (`{42}`, `{\"a\"}`, `{[1, 2]}`, `{{ key: \"v\" }}`, `{null}`) " +
			"that value. An expression the engine evaluates only when it runs (`{props.title}`, `{plan.steps}`) " +
			"is not checked. Every keyword of the prop's schema applies (`type`, `enum`, `const`, `minimum`, " +
			"`pattern`, `items`, …; a `$ref` into the declaration is followed), through a JSON Schema library, " +
			"not a reading of its own. A registered component's schema is the engine's registration's " +
			"(`<PullRequest number={0}>` fails its `minimum: 1`; see workflow/unknown-prop). Inside the testing " +
			"package's `<AssertThrows>` the failure is what the test asserts, and is not reported.\n\n" +
			"An expression prop that is itself a function (`onDone={() => next()}`, `{function () {…}}`, " +
			"`{async (x) => x}`) is refused before validation, whatever it would return: the engine evaluates a " +
			"component's expression props and a function is not JSON (packages/core/src/expand.ts, " +
			"resolveExpressionProps: `Expression prop \"onDone\" on <Card /> evaluated to a non-serializable value " +
			"(function). Props must be JSON-serializable.`). A call (`{(() => 1)()}`, `{items.map((x) => x.name)}`), " +
			"an object holding a function (JSON drops it), a captured prop (`<Assert expr>`) and `<Let value>` " +
			"(bound by reference) are not refused.\n\n" +
			"Some of the engine's own components refuse, in their code, literal values their schema takes, and " +
			"baton reports those too (a literal only; an expression is evaluated when it runs):\n\n" +
			"- `<Glob include exclude>`: a pattern that is empty, absolute (`/etc/*`, `C:/x`) or starts with `..` " +
			"(packages/core/src/components/Glob.ts, patterns: `include pattern \"/etc/*\" is absolute; give a " +
			"pattern relative to the working directory.`), and one the runtime's glob dialect cannot compile — an " +
			"unterminated `[` class or `{` group, a `}` that closes none, a range such as `[z-a]` (`one of these " +
			"patterns cannot be used: \"src/[z-a].ts\".`; @effectionx/fs globToRegExp, held to the runtime's " +
			"verdicts in analysis/workflow/testdata/globs.json; a pattern with a backslash is not judged);\n" +
			"- `<File path>`: empty, absolute, or leaving the working directory by its `..` segments " +
			"(`\"../notes.md\" resolves outside the working directory.`; packages/runtime/host-files.ts, " +
			"inadmissible);\n" +
			"- `<Fetch>`: a `url` with no scheme or another than http: or https: (`<Fetch url> must be an absolute " +
			"http: or https: URL, got \"example.com/a\"`), a `method` other than `GET` or `HEAD`, `headers` naming " +
			"one header twice in two spellings (`Accept` and `accept`), a `timeout` that is not a duration " +
			"(packages/core/src/fetch-request.ts, prepareFetchRequest);\n" +
			"- `<Prompt timeout>`, `<AgentProvider timeout>`: not a positive whole number of `ms`, `s`, `m` or " +
			"`min` (`<Prompt timeout> must be a duration like 500ms, 30s, or 5min, got \"2h\"`; " +
			"packages/runtime/duration.ts, parseDuration); write `120min`;\n" +
			"- `<AgentProvider name>` other than `acpx` under `xmd run`, which registers that provider and no other " +
			"(`Unknown agent provider \"openai\"`; packages/core/src/agent/provider-api.ts). A provider TypeScript " +
			"registers answers names no document shows, so the name is judged only in a document that runs no code " +
			"registering one, with nothing around the tag but structural and engine components; not under `xmd test` " +
			"or in a `*.test.md`.",
		Follows: []string{
			"executable.md packages/core/src/validate.ts validateProps (PropValidationError)",
			"executable.md packages/core/src/expand.ts resolveExpressionProps (a function prop)",
			"executable.md packages/core/src/components/Glob.ts patterns (empty, absolute, .. patterns)",
			"executable.md packages/runtime/apis.ts toRegExp (a glob the dialect cannot compile)",
			"executable.md packages/runtime/host-files.ts inadmissible (<File path>)",
			"executable.md packages/core/src/fetch-request.ts prepareFetchRequest (url, method, headers, timeout)",
			"executable.md packages/runtime/duration.ts parseDuration (<Prompt timeout>, <AgentProvider timeout>)",
			"executable.md packages/core/src/agent/provider-api.ts installationTerminal (<AgentProvider name>)",
		},
	}
	RuleSpreadDropped = &analysis.Rule{
		ID:       "workflow/spread-dropped",
		Summary:  "A `{...spread}` passes nothing: the engine's scanner drops it.",
		Severity: analysis.Warning,
		Doc: "JSX's `<Comp {...props} />` passes an object's entries as props; XMD's does not. The engine's " +
			"scanner (packages/core/src/scanner.ts, parseAttributes) skips a `{...expression}` without evaluating " +
			"it: the element receives none of it, the expression never runs (so a name in it is not checked " +
			"either), and a directive (`<If>`, `<Loop>`, …) works as if it were not written. The engine reports " +
			"nothing, and renders the element without those props: an optional prop takes its default or is " +
			"absent, and a required one fails validation (workflow/missing-required-prop). Pass each prop by name " +
			"(`name={args.name}`).\n\n" +
			"Only `{..` starts a spread: any other `{` where an attribute's name belongs makes the engine read the " +
			"whole tag as text (workflow/syntax).",
	}
	RuleUndefinedName = &analysis.Rule{
		ID:       "workflow/undefined-name",
		Summary:  "An expression reads a name with no binding in scope.",
		Severity: analysis.Error,
		Doc: "An expression (`x={name.path}`, `condition={…}`) sees `props`, the bindings made above it (`as`, " +
			"`<Let>`, eval blocks) and the `<Each let>` of an enclosing loop. Any other name fails the " +
			"expression when it runs — and in an untaken branch, never until the day it is taken. An `<Each let>` " +
			"name is unset after its `</Each>`; bindings made in a Markdown component's projected content do not " +
			"reach its caller. Bind the name above the read, or fix it.",
	}
	RuleUnknownPlaceholder = &analysis.Rule{
		ID:       "workflow/unknown-placeholder",
		Summary:  "A text placeholder names no binding in scope (or no meta key).",
		Severity: analysis.Warning,
		Doc: "`{name}` in text interpolates a binding made above it; an unknown name is left verbatim in the " +
			"output, and `{meta.key}` for a key the front matter does not have renders as empty text. Bind the " +
			"name above it, fix it, or write `\\{name}` for literal braces. Placeholders in inline code spans are " +
			"interpolated too, but an unbound name there is left as written, so only `props` and `meta` are " +
			"checked in code spans.\n\nIn an executable block (```` ```bash exec ````) only the bindings pass " +
			"runs (spec §6.4; packages/core/src/eval-interpolate.ts): `{name}` and `{props.key}` are read from " +
			"the bindings, an unknown name is left verbatim, and `{meta.key}` is never interpolated — the command " +
			"receives it as written, which is reported. `${name}` there is the shell's own expansion (or a " +
			"template literal's) and is not reported when nothing binds `name`. An ordinary fenced block is " +
			"never interpolated. ```` ```bash exec as=\"name\" ```` binds `name` to the block's result (spec " +
			"§3.6) for what follows it.",
	}
	RuleInjectedName = &analysis.Rule{
		ID:       "workflow/name-maybe-injected",
		Summary:  "A name with no binding in scope is read in the content of a TypeScript component, which may bind it.",
		Severity: analysis.Hint,
		Doc: "A component written in TypeScript (a `.ts` file the search finds, or a name a host registers, " +
			"`workflow.registered`) may expand its content in an environment of its own, with names no document " +
			"declares: the smoke test's `<AgentHarness>` gives its body `{harness.home}`. Which names, no static " +
			"reading can know, so a name read there with no binding baton sees is only this hint, never " +
			"workflow/undefined-name or workflow/unknown-placeholder. If the component does not bind it, the " +
			"expression fails, or the placeholder is left verbatim, when it runs.",
	}
	RuleUnresolvedComponent = &analysis.Rule{
		ID:       "workflow/unresolved-component",
		Summary:  "A tag resolves to no component.",
		Severity: analysis.Error,
		Doc: "A name resolves as the engine's resolver decides (taras/executable.md, " +
			"packages/core/src/components/select.ts): structural syntax (`If`, `Let`, `Output`, …); a registered " +
			"component; the workflow root's `workflow.components` bundle; else a file `{Name}.md`, `{Name}.ts`, " +
			"`{Name}/index.md` or `{Name}/index.ts` (a dot in the name is a folder) in each search folder in turn. " +
			"What none answers is the unresolved printed error — but only when execution reaches it, so a name in " +
			"an untaken branch fails the day the branch is taken. baton checks every branch.\n\n" +
			"**Registered** are what `xmd run` and `xmd test` install for every document " +
			"(packages/cli/src/cli.ts, installDocumentComponents): core's `Parse`, `SafeParse`, `Elicit`, `Glob`, " +
			"`File`, `Json`, `TempDir`, `Fetch`, `Test` and its agent components (`Agent`, `AgentProvider`, " +
			"`Session`, `Session.Launch`, `Prompt`, `ApproveAll`, `AskPermission`); the testing package's " +
			"`Testing`, `AssertThrows`, `Execution`, `WorkflowRun`, `DiagnosticJournal`, `CollectOutput`, " +
			"`CollectJournal` and its assertion table, bare `Assert` included (packages/testing/src/assertions.ts); " +
			"`TestAgent` and `TestAgent.Scenario` (under `xmd test` alone), `WhenPrompt` (in a test agent's scripts) " +
			"and `WebForm`; and the workflow host's `Repository`, `Worktree`, `Dir`, `Git.*`, `PullRequest`, " +
			"`IssueTracker`, `Issue` (in a workflow run alone). A workflow run registers no agent component: " +
			"`xmd workflow start` runs the document with no agent, and installs neither `Prompt` nor `Agent`, " +
			"`Session`, `Session.Launch`, `AgentProvider`, `ApproveAll`, `AskPermission` (packages/cli/src/cli.ts: " +
			"installAgentComponents is called only for `xmd run`'s agent or under `xmd test`), so `<Prompt>` there is " +
			"`Cannot resolve component: Prompt (searched: )`. A `workflow.mode` in `.baton.yaml` says how the engine " +
			"runs a document; unset, a document a workflow bundle applies to (its root, or a component it lists) is " +
			"taken as run by `xmd workflow start`, since only that command reads a bundle, and for any other " +
			"document all of them are taken as registered. " +
			"A host can register more in TypeScript (`registerComponents`), which no static reading sees: name them " +
			"under `workflow.registered` in `.baton.yaml` (`*` matches any run of characters). A registered name is " +
			"only a default: a repository file of the same name is chosen ahead of it (select.ts: a repository-local " +
			"file, then a registered default), and its own props are checked, except in a workflow run, which " +
			"searches no files.\n\n" +
			"**The search folders** are, as the engine's `--component-dir` defaults say, `components` and `.` of " +
			"the folder it runs in, which for baton is the workspace root (the folder holding `.baton.yaml` or " +
			"`.git`), then the document's own folder, the first `xmd test` searches for a document it finds " +
			"(packages/cli/src/test-target.ts, componentSearchPath). A `components` folder other than the root's " +
			"is not searched: a site's `docs/components/Callout.ts` does not answer `<Callout>` in `docs/guide/page.md`, " +
			"and such a page is not read as a workflow either (one search path decides both). " +
			"`workflow.component-dirs` in `.baton.yaml` replaces these, as `--component-dir` does. A test document " +
			"(`*.test.md`, what `xmd test` finds in a folder) is searched first in its own folder and then in the " +
			"folder `xmd test` was given; baton searches each folder above the document for that one, then the " +
			"configured or default folders.\n\n" +
			"A workflow run (`xmd workflow start`) searches no files at all: under a workflow root, a name only a " +
			"file answers is reported too — declare it in the bundle. Without a workspace to read, baton does not " +
			"report names it cannot look up. A tag that is never closed is text to the engine and is not looked up " +
			"(workflow/syntax reports it).",
		Follows: []string{
			"executable.md packages/cli/src/cli.ts installDocumentComponents (no agent components in a workflow run)",
		},
	}
	RuleOutputPlacement = &analysis.Rule{
		ID:       "workflow/output-placement",
		Summary:  "`<Output>` is not a direct top-level element, or sits in a value component.",
		Severity: analysis.Error,
		Doc: "Only a direct top-level `<Output>` declares an output region; one nested anywhere (in an `<If>`, " +
			"inside a component's content, in another `<Output>`) makes the whole component structurally " +
			"invalid, and it runs nothing. Conditional rendering is written with `<If>` *inside* `<Output>`. " +
			"A value component (one declaring `returns`) renders nothing and may not have `<Output>` at all.",
	}
	RuleReturnPlacement = &analysis.Rule{
		ID:       "workflow/return-placement",
		Summary:  "A value component lacks exactly one top-level `<Return>`, or a text component has one.",
		Severity: analysis.Error,
		Doc: "A component declaring `returns` contains exactly one direct top-level `<Return value={…} />`; a " +
			"missing, duplicated or nested one, or a `<Return>` in a text component, makes the component " +
			"structurally invalid before its body runs.",
	}
	RuleValueWithoutAs = &analysis.Rule{
		ID:       "workflow/value-without-as",
		Summary:  "A value component is invoked without `as`.",
		Severity: analysis.Error,
		Doc: "A value component (its `returns` declared) renders nothing, so it must be invoked with " +
			"`as=\"name\"` to bind what it returns; without it the engine fails the invocation before the " +
			"component runs (packages/core/src/expand.ts: \"declares `returns`, so it renders nothing and must be " +
			"invoked with `as`\"), a printed error or, under a throwing error mode, a failed run. It decides this " +
			"when execution reaches the element; baton checks every branch.\n\n" +
			"Of the components the engine and its hosts register, those declaring `returns` are core's `Elicit`, " +
			"`Glob`, `Parse` and `SafeParse` (packages/core/src/components/registry.ts), `WebForm` " +
			"(packages/web/src/components.ts) and the workflow host's `Git.Commit`, `PullRequest` and `Issue` " +
			"(packages/workflow/src/composition/installation.ts); the others (`Prompt`, `Agent`, `File`, `Json`, " +
			"`Git.Add`, `Repository`, …) render text and need no `as`. A component file declares `returns` in its " +
			"front matter; a TypeScript component's module exports it (`export const returns = …`), and the engine " +
			"makes the same check for it (expand.ts, the function component's invocation).",
	}
	RuleElsePlacement = &analysis.Rule{
		ID:       "workflow/else-placement",
		Summary:  "`<Else>` is not the last child of an `<If>`.",
		Severity: analysis.Error,
		Doc: "`<Else>` is the alternative branch of the `<If>` it is written in, and must be its last child: " +
			"content after it, a second `<Else>`, or an `<Else>` outside an `<If>` is an error.",
	}
	RuleBreakOutsideLoop = &analysis.Rule{
		ID:       "workflow/break-outside-loop",
		Summary:  "`<Break>` is not inside a `<Loop>`.",
		Severity: analysis.Error,
		Doc: "`<Break />` ends the nearest enclosing `<Loop>` written around it — in the same body, or around " +
			"the invocation whose content holds it. A component's own body is isolated from its caller's loop: " +
			"a `<Break>` there with no `<Loop>` in that body is a printed error.",
	}
	RuleLoopWithoutMax = &analysis.Rule{
		ID:       "workflow/loop-without-max",
		Summary:  "`<Loop>` has no `max`, or one that is not a positive integer.",
		Severity: analysis.Error,
		Doc: "`<Loop>` has no unbounded form: `max`, a positive integer (`max={5}`), is required. The engine " +
			"decides it when execution reaches the loop (packages/core/src/expand.ts, loopBound): without `max`, " +
			"or with a value that is not a number (`max=\"3\"` is the string \"3\"), not an integer or less than 1 " +
			"(`Prop \"max\" on <Loop> must be a positive integer. Got: 0.`), it fails the loop — nothing in it " +
			"runs, and the error is printed, or raised under a throwing error mode. baton checks every loop, taken " +
			"or not, and reads `max` as the engine's scanner does (packages/core/src/scanner.ts, " +
			"parseExpressionValue): a JSON literal (`{0}`, `{-1}`, `{2.5}`, `{\"3\"}`, `{null}`) is known before " +
			"anything runs; an expression (`{props.rounds}`, `{n + 1}`) is evaluated only then, and is not checked. " +
			"Inside the testing package's `<AssertThrows>` the failure is what the test asserts, and is not reported.",
	}
	RuleCaptureRenamed = &analysis.Rule{
		ID:       "workflow/capture-renamed",
		Summary:  "`<Capture>` was renamed `<Let>`.",
		Severity: analysis.Error,
		Doc: "`<Capture as=\"x\">…</Capture>` is now `<Let as=\"x\">…</Let>`. On main `Capture` is not reserved " +
			"and has no alias: it resolves like any component name, usually to nothing. The quick fix renames it.",
	}
	RuleDirectiveForm = &analysis.Rule{
		ID:       "workflow/directive-form",
		Summary:  "A structural directive or a binding name is written in a form the engine refuses.",
		Severity: analysis.Error,
		Doc: "The directives take fixed props: `<If condition>`, `<Each in let as>` (`let` required, a string), " +
			"`<Loop max name>`, `<Let as value select>` with exactly one source (children, or `value` with no " +
			"children — whitespace counts as children — and `select` only with children), `<Return value>` " +
			"with no children, `<Break />`, `<Else>`, `<Output>` with no props, `<Content slot>`. A binding name " +
			"(`as`, `let`) is a string literal and a legal JavaScript binding (not `in`, `let`, `await`, …) — a quoted " +
			"value, or an expression the engine's scanner resolves to a string before anything runs (`as={\"plan\"}` " +
			"is the name `plan`; `as={plan}` and `as={1}` are refused) — and a " +
			"`<Loop name>` a non-empty string literal. The engine fails the directive when execution reaches it " +
			"(packages/core/src/expand.ts: expandLoop, expandEach, expandLet, …), a printed error or, under a " +
			"throwing error mode, a failed run; baton checks every branch. A `{...spread}` on a directive is " +
			"dropped by the scanner and changes nothing (workflow/spread-dropped).\n\n" +
			"Some forms fail whatever the bindings hold: `<Each in=\"steps\">` is the string \"steps\", never " +
			"an array (expandEach: \"Prop \\\"in\\\" on <Each /> must resolve to an array.\"; the quick fix writes " +
			"`in={steps}`), as is a bare `in` or a literal that is not one (`in={3}`); an `<Else />` or " +
			"`<Else></Else>` with no content is refused even in the branch not taken (ifStructure, " +
			"elseElementViolations; the fix removes it, an empty alternative being none); `<Break>` is only " +
			"self-closing, so `<Break></Break>` is refused (breakElementViolations); a `<Return>` with anything " +
			"between its tags, a line break included, has children (returnElementViolations: the scanner keeps " +
			"whitespace); the fix writes both self-closing. `<PrintErrors>` takes no props, not even `as` or " +
			"`slot` (expandPrintErrors), `<Answers>` only `delegate` and `<Answer>` only `template` and `value` " +
			"(packages/core/src/answers.ts; the rest of their form is workflow/answers).\n\n" +
			"A literal `<Let select>` is parsed as a CSS selector before it is matched against the rendered body " +
			"(expandLet: unist-util-select 5's select, with css-selector-parser 3's selectors-4 grammar), and one " +
			"the parser refuses fails the `<Let>`: `select=\"h2[\"`, `select=\"heading[depth=2]\"` (an " +
			"identifier cannot start with a digit: write `depth='2'`), an unknown pseudo-class. baton's reading is " +
			"held to the parser's verdicts (analysis/workflow/testdata/selectors.json). A `select={expression}` is " +
			"never read: the scanner keeps it out of the props the engine takes `select` from.",
		Follows: []string{
			"executable.md packages/core/src/expand.ts expandEach (props; let, as; in must resolve to an array)",
			"executable.md packages/core/src/expand.ts elseElementViolations (no props; content)",
			"executable.md packages/core/src/expand.ts breakElementViolations (no props; self-closing)",
			"executable.md packages/core/src/expand.ts returnElementViolations (value; no children)",
			"executable.md packages/core/src/expand.ts expandPrintErrors (no props)",
			"executable.md packages/core/src/expand.ts expandLoop, expandLet, expandIf (props and forms)",
			"executable.md packages/core/src/expand.ts expandLet (a select the selector parser refuses)",
		},
	}
	RuleSyntax = &analysis.Rule{
		ID:       "workflow/syntax",
		Summary:  "A tag or the front matter cannot be read.",
		Severity: analysis.Error,
		Doc: "baton reads XMD as the engine's boundary scanner does: a tag starts at `<` and a capital letter " +
			"anywhere but in fenced code and inline code (packages/core/src/scanner.ts, scanSegments and " +
			"parseChildren skip only those), so in a workflow a `<Name />` in an HTML comment, a block quote, an " +
			"indented code block or after a backslash is an element like any other, and fails when it resolves to " +
			"nothing (a backslash escapes no backtick either). Its fenced code is a fence indented by at most three " +
			"spaces (matchFenceOpen), and its inline code runs from a run of backticks to the next run of as many, " +
			"across blank lines and fences (skipInlineCode): a stray backtick hides the tags up to the next one. " +
			"Attributes are `name=\"text\"`, " +
			"`name={expression}`, `name` or `{...spread}`, and a block tag is closed by `</Name>`. What cannot be " +
			"read — a tag never closed, an unterminated value, malformed front matter — is reported, and baton goes " +
			"on reading after it. A tag never closed is text to the engine (packages/core/src/scanner.ts): it runs " +
			"nothing and resolves nothing, so the engine renders the document differently from what was written " +
			"and never says so; only baton reports it. Malformed front matter fails the component the first time " +
			"the engine imports it; the engine reads front matter with gray-matter (packages/core/src/definition.ts), " +
			"which caches a text before parsing it, so a second import of the same file in one run \"succeeds\" and " +
			"renders the raw front matter as text — broken either way. gray-matter reads the rest of the opening " +
			"`---` line as the language of the block, and has parsers for YAML (`yaml`, `yml`), JSON (`json`) and " +
			"JavaScript (`js`) only: front matter opened by `---toml`, `---ini` or `---JSON` (only the YAML and " +
			"JavaScript names ignore case) fails every load of the document with `gray-matter engine \"toml\" is not " +
			"registered`, unless the block holds nothing but comment lines. A closing tag that closes nothing is " +
			"workflow/stray-closing-tag, not this. In an HTML comment, after a backslash or in an indented code block, " +
			"where Markdown shows no " +
			"tag, a tag never closed or that cannot be read is text as its author wrote it, and is not reported. " +
			"baton leaves out three readings of the engine's scanner, since each would turn prose into unclosed tags: " +
			"a name with a hyphen (`<Name-x …>`), a `{...spread}` right after the name with no space, and an `=` " +
			"followed by a line break before the value.\n\n" +
			"A document is read as a workflow only when it is XMD: its front matter has a key the engine reserves " +
			"(`props`, `required`, `returns`) or `workflow.components`, or its text (outside code and block " +
			"quotes) holds an element the engine's scanner closes — `<Name …/>`, or `<Name …>` with `</Name>` " +
			"further on. Ordinary Markdown's `Option <X>`, `<Low | Medium | High>` or `array<Record>` is not one, " +
			"and such a document is not checked as a workflow at all.",
		Follows: []string{"executable.md packages/core/src/definition.ts parseSource (gray-matter 4.0.3: a front matter language it has no engine for)"},
	}
	RuleStrayClose = &analysis.Rule{
		ID:       "workflow/stray-closing-tag",
		Summary:  "A closing tag closes nothing: the engine renders it as text.",
		Severity: analysis.Hint,
		Doc: "The engine's scanner (packages/core/src/scanner.ts) starts an element only at `<` and a capital " +
			"letter (scanSegments), and a block element's children end at the first `</Name>` of its own name " +
			"(parseChildren): a `</Comp>` that closes no open `<Comp>` is plain text. The document runs, and the " +
			"text `</Comp>` goes into the output as written — into the prompt an agent reads. The engine fails " +
			"nothing, so this is only a hint from baton: usually a leftover of an edit, or the closer of a tag " +
			"whose name was changed. Remove it, or close the element it was meant to close.",
	}
	RuleBundle = &analysis.Rule{
		ID:       "workflow/bundle",
		Summary:  "A `workflow.components` declaration is invalid or names no file.",
		Severity: analysis.Error,
		Doc: "A workflow root declares the Markdown components its run is closed over:\n\n" +
			"```yaml\nworkflow:\n  components:\n    Planning: ./Planning.md\n```\n\n" +
			"`xmd workflow start` reads the declaration before the run exists, and refuses the start " +
			"(packages/cli/src/workflow-bundle.ts, declaredBundle, usableName, canonicalPath): `workflow` is a mapping with " +
			"exactly one member, `components`; `components` is a mapping with at least one entry; each name is a component " +
			"name (each dot-separated part `^[A-Z][A-Za-z0-9_]*$`: `planning`, `Plan-A`, `Plan.step` are not) and claims " +
			"neither structural syntax nor one of core's own components (`Parse`, `SafeParse`, `Elicit`, `Glob`, `File`, " +
			"`Json`, `TempDir`, `Fetch`, `Test`); each value is a string; and each path is written once, relative to the " +
			"root's folder: not empty, no backslash, not absolute, no scheme (`c:Plan.md`, `https://…`), none of " +
			"`*?[]{}`, one optional leading `./` and then no empty, `.` or `..` segment (`sub//Plan.md`, `sub/./Plan.md`; " +
			"the quick fix writes the path once), no first segment starting `@` (a package), a `.md` file, in the " +
			"workspace. Any other name a package registers (`Prompt`, `WebForm`, …) a bundle may declare: in a workflow " +
			"run its file answers for the name.\n\n" +
			"The declaration is the `workflow` of the document's meta (packages/core/src/frontmatter.ts, parseMeta): a " +
			"front matter with a `meta` mapping declares it as `meta.workflow`, and its top-level `workflow` is read by " +
			"nothing. A `workflow` that names no `components` (`workflow: true`) is another tool's key as far as `xmd run` " +
			"is concerned, and is reported only where `workflow.mode: workflow` in `.baton.yaml` says the document is " +
			"started by `xmd workflow start`.\n\n" +
			"The start reads each component from the `HEAD` commit of the root's Git repository, never from the working " +
			"tree (readComponent: `git cat-file blob HEAD:<path>`), and refuses it when the commit holds no file at the " +
			"path: a component that is untracked, or staged but not committed, or a folder. Commit it. A component " +
			"modified since the commit runs as committed, and one deleted from the working tree still runs; neither is " +
			"reported. Where baton cannot tell what the commit holds (no repository, no commit yet, no `git`), it checks " +
			"that the file is in the workspace.",
		Follows: []string{
			"executable.md packages/cli/src/workflow-bundle.ts declaredBundle (workflow, components)",
			"executable.md packages/cli/src/workflow-bundle.ts readComponent (the component at HEAD)",
			"executable.md packages/cli/src/workflow-bundle.ts usableName (component names, structural syntax, core's names)",
			"executable.md packages/cli/src/workflow-bundle.ts canonicalPath (the paths)",
			"executable.md packages/core/src/frontmatter.ts parseMeta (meta.workflow)",
		},
	}
)

// Rules is every rule of the analyzer.
var Rules = []*analysis.Rule{
	RuleUngatedTransition, RuleUnboundCheckpoint, RuleCheckpointNoDecision, RuleBarePropReference,
	RuleBindingMaybeUnset, RuleUndeclaredProp, RulePropsDeclaration, RuleUnknownProp, RuleMissingRequiredProp, RulePropValue, RuleReturnValue, RuleSpreadDropped,
	RuleUndefinedName, RuleUnknownPlaceholder, RuleInjectedName, RuleUnresolvedComponent, RuleOutputPlacement, RuleReturnPlacement,
	RuleValueWithoutAs, RuleElsePlacement, RuleBreakOutsideLoop, RuleLoopWithoutMax, RuleCaptureRenamed,
	RuleDirectiveForm, RuleSyntax, RuleStrayClose, RuleBundle,
	RuleAnswers, RuleExecInfo, RuleHostComponent,
	RuleFrontMatterJSON, RuleReturnsDeclaration,
	RuleSlotName, RuleComponentCycle, RuleNoTests, RuleExpressionSyntax, RuleEvalSyntax, RuleCredential, RuleTSComponent,
	RuleTestForm, RuleExecution, RuleTestAgent,
	RuleSchemaProp,
	RuleComponentForm, RuleContentPlacement, RuleLiveBinding,
}

// Analyzer checks XMD workflows. It returns a *Model.
var Analyzer = &analysis.Analyzer{
	Name:  "workflow",
	Kind:  markdown.KindWorkflow,
	Rules: Rules,
	Run:   func(p *analysis.Pass) any { return run(p) },
}

// What the engine does with what each rule reports, the last paragraph
// of the rule's doc: it fails the document (when execution reaches the
// element, or when the component loads), renders it differently from what
// was written and says nothing, or neither — then only baton reports it.
var engineVerdicts = map[*analysis.Rule]string{
	RuleUngatedTransition: "only baton reports it. The engine runs the document as written: the transition runs " +
		"whatever the user answered.",
	RuleUnboundCheckpoint: "fails the invocation of a checkpoint that is a value component (invoked without `as`: " +
		"workflow/value-without-as). A text checkpoint without `as` runs and its answer is discarded: only baton " +
		"reports that.",
	RuleCheckpointNoDecision: "renders it differently, and says nothing: the text component runs, `cp.proceed` is " +
		"`undefined`, and a gate on it never opens. Only baton reports it.",
	RuleBarePropReference: "fails an expression that reads the bare name when it runs (the name is unbound); in " +
		"text it renders the placeholder verbatim, differently from what was meant, and says nothing.",
	RuleBindingMaybeUnset: "renders it differently when the branch was not taken: a placeholder is left verbatim; an " +
		"expression reading the name fails when it runs.",
	RuleUndeclaredProp: "renders it differently, and says nothing: `{props.x}` renders as empty text, and " +
		"`props.x` in an expression is `undefined`.",
	RulePropsDeclaration: "fails the component when it loads (packages/core/src/frontmatter.ts, " +
		"parsePropsSchema), before any invocation of it runs; two props of a root that make one option, the " +
		"command that starts it, before anything runs.",
	RuleUnknownProp: "fails the invocation's prop validation when execution reaches it " +
		"(packages/core/src/validate.ts, validateProps): a printed error, or a failed run under a throwing error mode.",
	RuleMissingRequiredProp: "fails the invocation's prop validation when execution reaches it " +
		"(packages/core/src/validate.ts, validateProps): a printed error, or a failed run under a throwing error mode.",
	RuleReturnValue: "fails every invocation of the component: its return value fails validation.",
	RulePropValue: "fails the invocation's prop validation when execution reaches it " +
		"(packages/core/src/validate.ts, validateProps): a printed error, or a failed run under a throwing error mode.",
	RuleSpreadDropped: "renders the element without the spread's props, and says nothing: only baton reports it " +
		"(a required prop missing for it fails, workflow/missing-required-prop).",
	RuleUndefinedName: "fails the expression when execution reaches it: a printed error, or a failed run under a " +
		"throwing error mode.",
	RuleUnknownPlaceholder: "renders it differently, and says nothing: an unknown name is left verbatim, " +
		"`{meta.key}` for a missing key renders empty, and an executable block receives `{meta.key}` as written.",
	RuleInjectedName: "fails the expression, or leaves the placeholder verbatim, only if the TypeScript component " +
		"binds no such name; no static reading can tell, hence only a hint.",
	RuleUnresolvedComponent: "fails: the unresolved printed error when execution reaches the tag " +
		"(packages/core/src/components/select.ts), a failed run under a throwing error mode.",
	RuleOutputPlacement: "fails the component: it is structurally invalid and runs nothing.",
	RuleReturnPlacement: "fails the component: it is structurally invalid and runs nothing.",
	RuleValueWithoutAs:  "fails the invocation when execution reaches it (packages/core/src/expand.ts).",
	RuleElsePlacement: "fails the run: an `<Else>` out of place is a positioned diagnostic nothing recovers, and " +
		"`xmd run` exits 1.",
	RuleBreakOutsideLoop: "fails: a printed error when execution reaches the `<Break>`.",
	RuleLoopWithoutMax: "fails the loop when execution reaches it (packages/core/src/expand.ts, loopBound): " +
		"nothing in it runs.",
	RuleCaptureRenamed: "fails the invocation as an unresolved component, unless a file named `Capture` answers " +
		"it — then that file runs, not a binding.",
	RuleDirectiveForm: "fails the directive when execution reaches it (packages/core/src/expand.ts).",
	RuleSyntax: "renders a tag never closed as text, differently from what was written, and says nothing — only " +
		"baton reports it; malformed front matter fails the component the first time it is imported.",
	RuleStrayClose: "renders the closing tag as text into the output, and says nothing: only baton reports it.",
	RuleBundle: "fails `xmd workflow start` before the run exists (packages/cli/src/workflow-bundle.ts, declaredBundle), " +
		"or before the root is imported (packages/core/src/components/bundle.ts).",
	RuleHostComponent: "fails the element when execution reaches it in a workflow run, before any Git command or tracker " +
		"request: a printed error, or, for a Git operation or pull request outside a `<Repository>`, a failure no " +
		"`<PrintErrors>` region catches.",
}

func init() {
	for r, v := range engineVerdicts {
		r.Doc += "\n\n**The engine** " + v
	}
}
