/**
 * PRIVACY.md's list of what is kept, held to every storage key the code writes. The keys are found by
 * scanning src/ with the TypeScript parser (no list to keep by hand): every call `<area>.set({…})` is a
 * write to the extension's storage (Map, Set and typed arrays never take an object literal), and each of its
 * keys is read from the literal — a constant (`[SETTINGS_STORAGE_KEY]`, found where it is declared), a
 * function that makes a per-tab key (`[statusKey(tabId)]` → `status:<tabId>`), or a spread of an object
 * built elsewhere in the file (followed to that object, or to the arguments the function is called with).
 * A write whose keys the scan cannot read fails, so nothing slips past. The area (storage.local or
 * storage.session) is told by the receiver's name (tests/unit/docs/sources.test.ts compares them with
 * PRIVACY.md's list of keys).
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { REPO_ROOT } from '../../support/common';
import { codeSpans, readRepoFile, section } from './pages';

type Area = 'storage.local' | 'storage.session';

function sourceFiles(dir: string): string[] {
  return readdirSync(join(REPO_ROOT, dir)).flatMap((entry) => {
    const path = `${dir}/${entry}`;
    if (statSync(join(REPO_ROOT, path)).isDirectory()) return entry === 'assembly' || entry === 'build' ? [] : sourceFiles(path);
    return /\.ts$/.test(entry) && !entry.endsWith('.d.ts') ? [path] : [];
  });
}

export const files = sourceFiles('src').map((path) => ({ path, source: ts.createSourceFile(path, readRepoFile(path), ts.ScriptTarget.ES2022, true) }));

function walk(node: ts.Node, visit: (node: ts.Node) => void): void {
  visit(node);
  node.forEachChild((child) => walk(child, visit));
}

/** `const NAME = 'text'` anywhere in src/ (storage key constants are declared once). */
function constantText(name: string): string | null {
  const found = new Set<string>();
  for (const { source } of files) {
    walk(source, (node) => {
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === name && node.initializer && ts.isStringLiteral(node.initializer)) found.add(node.initializer.text);
    });
  }
  return found.size === 1 ? [...found][0] : null;
}

/** `function NAME(x) { return `prefix:${x}`; }` anywhere in src/ → "prefix:<x>". */
function keyFunctionPattern(name: string): string | null {
  let pattern: string | null = null;
  for (const { source } of files) {
    walk(source, (node) => {
      if (!ts.isFunctionDeclaration(node) || node.name?.text !== name || !node.body) return;
      const last = node.body.statements.at(-1);
      if (last && ts.isReturnStatement(last) && last.expression && ts.isTemplateExpression(last.expression)) {
        const template = last.expression;
        pattern = template.head.text + template.templateSpans.map((span) => `<${span.expression.getText()}>${span.literal.text}`).join('');
      }
    });
  }
  return pattern;
}

interface Context {
  readonly path: string;
  readonly source: ts.SourceFile;
}

/** The keys an expression that makes an object puts in it (literals, conditionals, spreads followed). */
function keysOf(expression: ts.Expression, context: Context, at: ts.Node): string[] {
  let e = expression;
  while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e)) e = e.expression;
  if (ts.isConditionalExpression(e)) return [...keysOf(e.whenTrue, context, at), ...keysOf(e.whenFalse, context, at)];
  if (ts.isIdentifier(e)) return keysOfIdentifier(e.text, context, at);
  const entries = mappedEntries(e);
  if (entries) return [computedKey(entries, context)];
  if (!ts.isObjectLiteralExpression(e)) throw new Error(`${context.path}: a storage write whose keys the docs test cannot read: ${e.getText()}`);
  return e.properties.flatMap((property) => {
    if (ts.isSpreadAssignment(property)) return keysOf(property.expression, context, at);
    if (!ts.isPropertyAssignment(property) && !ts.isShorthandPropertyAssignment(property)) throw new Error(`${context.path}: cannot read ${property.getText()}`);
    const name = property.name;
    if (ts.isIdentifier(name) || ts.isStringLiteral(name)) return [name.text];
    if (ts.isComputedPropertyName(name)) return [computedKey(name.expression, context)];
    throw new Error(`${context.path}: cannot read ${property.getText()}`);
  });
}

/** A computed key: a string constant, or a call of a function that makes a key (`[statusKey(tabId)]`). */
function computedKey(inner: ts.Expression, context: Context): string {
  if (ts.isIdentifier(inner)) {
    const text = constantText(inner.text);
    if (text !== null) return text;
  }
  if (ts.isCallExpression(inner) && ts.isIdentifier(inner.expression)) {
    const pattern = keyFunctionPattern(inner.expression.text);
    if (pattern !== null) return pattern;
  }
  throw new Error(`${context.path}: a storage key the docs test cannot resolve: ${inner.getText()} (declare it as a string constant or a function returning a template)`);
}

/** `Object.fromEntries(list.map((…) => [KEY, value]))`: the KEY expression (one key, or a key function's keys). */
function mappedEntries(e: ts.Expression): ts.Expression | null {
  if (!ts.isCallExpression(e) || e.expression.getText() !== 'Object.fromEntries' || e.arguments.length !== 1) return null;
  const [mapped] = e.arguments;
  if (!ts.isCallExpression(mapped) || !ts.isPropertyAccessExpression(mapped.expression) || mapped.expression.name.text !== 'map') return null;
  const [fn] = mapped.arguments;
  if (!fn || !ts.isArrowFunction(fn) || !ts.isArrayLiteralExpression(fn.body) || fn.body.elements.length !== 2) return null;
  return fn.body.elements[0];
}

/** An identifier that holds an object: a const in scope, or a parameter (followed to the calls in the file). */
function keysOfIdentifier(name: string, context: Context, at: ts.Node): string[] {
  for (let scope: ts.Node | undefined = at; scope; scope = scope.parent) {
    if (ts.isFunctionLike(scope)) {
      const index = scope.parameters.findIndex((p) => ts.isIdentifier(p.name) && p.name.text === name);
      if (index >= 0) return argumentsTo(scope, index, context);
    }
    let found: ts.Expression | undefined;
    scope.forEachChild((child) => {
      if (ts.isVariableStatement(child)) {
        for (const d of child.declarationList.declarations) if (ts.isIdentifier(d.name) && d.name.text === name && d.initializer) found = d.initializer;
      }
    });
    if (found) return keysOf(found, context, found);
  }
  throw new Error(`${context.path}: cannot find the object "${name}" a storage write spreads`);
}

/** The keys of the objects passed as parameter `index` of a function, at every call in its file. */
function argumentsTo(fn: ts.SignatureDeclaration, index: number, context: Context): string[] {
  const name = fn.name && ts.isIdentifier(fn.name) ? fn.name.text : null;
  if (!name) throw new Error(`${context.path}: a storage write spreads a parameter of an anonymous function`);
  const keys: string[] = [];
  walk(context.source, (node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === name && node.arguments[index]) keys.push(...keysOf(node.arguments[index], context, node));
  });
  return keys;
}

/** The storage area a receiver is: `browser.storage.local`, `this.local`, `session`… */
function areaOf(receiver: ts.Expression, path: string): Area {
  const text = receiver.getText();
  if (/(^|\.)local$/.test(text)) return 'storage.local';
  if (/(^|\.)session$/.test(text)) return 'storage.session';
  throw new Error(`${path}: a storage write on "${text}": name the area local or session (the docs test tells the area by it)`);
}

/** Every key the code writes, with its area: "storage.local settings", "storage.session status:<tabId>". */
export function writtenKeys(): Set<string> {
  const keys = new Set<string>();
  for (const context of files) {
    walk(context.source, (node) => {
      if (!ts.isCallExpression(node) || !ts.isPropertyAccessExpression(node.expression) || node.expression.name.text !== 'set') return;
      const [argument] = node.arguments;
      if (node.arguments.length !== 1 || !argument) return;
      let e: ts.Expression = argument;
      while (ts.isParenthesizedExpression(e)) e = e.expression;
      if (!ts.isObjectLiteralExpression(e)) {
        // A typed array's set(array): never a storage area's receiver name.
        if (/storage|\blocal$|\bsession$/i.test(node.expression.expression.getText())) throw new Error(`${context.path}: a storage write of a prebuilt object the docs test cannot read: ${node.getText()}`);
        return;
      }
      const area = areaOf(node.expression.expression, context.path);
      for (const key of keysOf(e, context, node)) keys.add(`${area} ${key}`);
    });
  }
  return keys;
}

/** "storage.local settings": the keys PRIVACY.md lists, one item each: "- `key` in `storage.local`: what". */
export function listedKeys(): Set<string> {
  const items = section('PRIVACY.md', readRepoFile('PRIVACY.md'), 'The storage keys')
    .split('\n')
    .filter((line) => line.startsWith('- '));
  if (items.length === 0) throw new Error('PRIVACY.md, "The storage keys": a list of "- `key` in `storage.local`: what it keeps"');
  return new Set(
    items.map((item) => {
      const [key, area] = codeSpans(item);
      if (!key || !/^storage\.(local|session)$/.test(area ?? '')) throw new Error(`PRIVACY.md, "The storage keys": write "- \`key\` in \`storage.local\`: what it keeps", not "${item}"`);
      return `${area} ${key}`;
    }),
  );
}
