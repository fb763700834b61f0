// Records testdata/tscomponents.json: what executable.md's engine
// (307ca55c) does with each TypeScript component module listed there.
//
// Setup, in a scratch folder (Node 20):
//   npm install ajv@8.20.0 effection@4.1.0 tsx@4.21.0
//   mkdir engine; for f in json.ts frontmatter.ts validate.ts types.ts; do
//     git --git-dir=<executable.md>.git show 307ca55c:packages/core/src/$f > engine/$f; done
//   echo '{"type":"module"}' > package.json
// then, with this file copied there:
//   npx tsx tscomponents.record.ts tscomponents.json tscomponents.json
// It keeps every field of each module and rewrites its engine field; a
// re-record of the committed file changes nothing.
//
// What runs: the function-component branch of
// packages/core/src/execute.ts durableImportComponent (lines 435-475,
// restated below line for line), with the engine's own json.ts,
// frontmatter.ts and validate.ts; then the invocation of
// packages/core/src/expand.ts (`yield* definition.fn(validatedProps)`),
// after validateProps of no props.
import { readFileSync, mkdirSync, writeFileSync, rmSync } from "node:fs";
import * as path from "node:path";
import { run, until } from "effection";
import { parseJsonObject } from "./engine/json.ts";
import { parseReturnsDeclaration } from "./engine/frontmatter.ts";
import { compilePropsSchema, compileReturnsSchema, validateProps } from "./engine/validate.ts";

type Case = {
  name: string;
  module: string;
  files?: Record<string, string>;
  engine?: { stage: string; error: string };
  [k: string]: unknown;
};

const input = JSON.parse(readFileSync(process.argv[2], "utf8"));
const root = path.resolve("work");
rmSync(root, { recursive: true, force: true });

for (const [i, c] of (input.modules as Case[]).entries()) {
  const dir = path.join(root, String(i));
  const rel = `components/${c.name}.ts`;
  const files = { ...(c.files ?? {}), [rel]: c.module };
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    writeFileSync(path.join(dir, p), text);
  }
  let stage = "import";
  try {
    await run(function* () {
      const name = c.name;
      const absolutePath = path.join(dir, rel);
      const p = rel; // the engine's message names the path selection found
      const mod = yield* until(import(`file://${absolutePath}`));
      if (typeof mod !== "object" || mod === null) {
        throw new Error(`Function component "${name}" at ${p} did not load a module`);
      }
      const defaultExport = "default" in mod ? mod.default : undefined;
      if (!(typeof defaultExport === "function")) {
        throw new Error(
          `Function component "${name}" at ${p} must have a default export that is a generator function`,
        );
      }
      const propsExport = "props" in mod ? mod.props : undefined;
      const props =
        propsExport === undefined
          ? { type: "object", properties: {}, additionalProperties: false }
          : parseJsonObject(propsExport);
      yield* compilePropsSchema(props);
      if ("returns" in mod && mod.returns !== undefined) {
        const returns = parseReturnsDeclaration(mod.returns);
        yield* compileReturnsSchema(returns);
      }
      stage = "invoke";
      const definition = { fn: defaultExport };
      const validatedProps = yield* validateProps(name, {}, props);
      return yield* definition.fn(validatedProps);
    });
    c.engine = { stage: "", error: "" };
  } catch (error) {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    c.engine = { stage, error: message.replaceAll(dir + "/", "") };
  }
}
writeFileSync(process.argv[3], JSON.stringify(input, null, 1) + "\n");
