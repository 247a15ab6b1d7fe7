/**
 * A build plugin that makes the main-world agent one function again. The background injects the agent with
 * `chrome.scripting.executeScript({ world: 'MAIN', func: mainWorldAgent, args })`: the browser sends the
 * function's source text alone, so the agent can reach no import and no module-level binding (threat model:
 * src/page/main-world.ts). Its parts are self-contained functions in modules of their own (src/page/agent-*.ts);
 * this plugin writes their declarations at the top of the agent's `start` method (a class body: strict code, as
 * the threat model wants) and removes their imports, so the agent's source holds them. Type-only imports stay
 * (the TypeScript transform erases them). The build fails when it cannot: a part is missing, or imports a value.
 *
 * The extension's builds (vite.config.ts) and the unit tests (vitest.config.ts) use it: the unit tests run the
 * agent from its source alone, as the browser does (tests/unit/content/keys-bridge.test.ts).
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import ts from 'typescript';
import type { Plugin } from 'vite';

const AGENT = /[\\/]src[\\/]page[\\/]main-world\.ts$/;
/** The agent's parts: modules beside it whose every value import must be written into its body. */
const PART = /^\.\/agent-[a-z-]+$/;

function parse(file: string, text: string): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

/** The value imports of a module (the type-only ones left out). */
function valueImports(source: ts.SourceFile): ts.ImportDeclaration[] {
  return source.statements.filter((s): s is ts.ImportDeclaration => ts.isImportDeclaration(s) && s.importClause?.isTypeOnly !== true);
}

/** The source of the function `name` that `file` exports, without its `export`. */
function partSource(file: string, name: string): string {
  const source = parse(file, readFileSync(file, 'utf8'));
  const imported = valueImports(source);
  if (imported.length > 0) throw new Error(`${file}: a part of the main-world agent imports types only, not ${imported[0].moduleSpecifier.getText(source)}`);
  const found = source.statements.find((s): s is ts.FunctionDeclaration => ts.isFunctionDeclaration(s) && s.name?.text === name);
  if (!found?.body) throw new Error(`${file}: no function ${name} to write into the main-world agent`);
  return source.text.slice(found.getStart(source), found.end).replace(/^export\s+/, '');
}

/** `code` (the agent's module, `file`) with its parts written into its `start` method and their imports removed. */
export function inlineAgentParts(code: string, file: string): { code: string; parts: string[] } {
  const source = parse(file, code);
  const edits: { from: number; to: number; text: string }[] = [];
  const parts: string[] = [];
  const functions: string[] = [];
  for (const statement of valueImports(source)) {
    const from = (statement.moduleSpecifier as ts.StringLiteral).text;
    const bindings = statement.importClause?.namedBindings;
    if (!PART.test(from) || statement.importClause?.name || !bindings || !ts.isNamedImports(bindings)) {
      throw new Error(`${file}: the main-world agent imports values only by name from its parts (./agent-*), not ${from}`);
    }
    const partFile = resolve(dirname(file), `${from}.ts`);
    for (const element of bindings.elements) {
      if (element.isTypeOnly) continue;
      if (element.propertyName) throw new Error(`${file}: import ${element.propertyName.text} from ${from} under its own name`);
      functions.push(partSource(partFile, element.name.text));
    }
    parts.push(partFile);
    edits.push({ from: statement.getStart(source), to: statement.end, text: '' });
  }
  if (functions.length === 0) return { code, parts };
  let start: ts.MethodDeclaration | undefined;
  const visit = (node: ts.Node): void => {
    if (ts.isMethodDeclaration(node) && node.name.getText(source) === 'start' && ts.isClassLike(node.parent)) start ??= node;
    else ts.forEachChild(node, visit);
  };
  visit(source);
  if (!start?.body) throw new Error(`${file}: no class method start() to write the main-world agent's parts into`);
  const at = start.body.getStart(source) + 1;
  edits.push({ from: at, to: at, text: `\n${functions.join('\n')}\n` });
  let out = code;
  for (const edit of edits.sort((a, b) => b.from - a.from)) out = out.slice(0, edit.from) + edit.text + out.slice(edit.to);
  return { code: out, parts };
}

export function mainWorldAgentParts(): Plugin {
  return {
    name: 'main-world-agent-parts',
    enforce: 'pre',
    transform(code, id) {
      if (!AGENT.test(id)) return null;
      const inlined = inlineAgentParts(code, id);
      for (const part of inlined.parts) this.addWatchFile(part);
      return { code: inlined.code, map: null };
    },
  };
}
