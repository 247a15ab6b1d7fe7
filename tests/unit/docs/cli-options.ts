/**
 * docs/cli.md's options tables against the commands' argument definitions: every `const OPTIONS = {…}` of
 * src/cli/*.ts (the specs `parseCommandLine` is given, spreads of shared specs followed into their modules),
 * read with the TypeScript parser, since the command files run as they are imported. Each table row names an
 * option and the commands that take it (tests/unit/docs/sources.test.ts compares the two).
 */
import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { REPO_ROOT } from '../../support/common';
import { codeSpans, readRepoFile, tables } from './pages';

const CLI_DIR = 'src/cli';

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readRepoFile(file), ts.ScriptTarget.ES2022, true);
}

/** The object literal a top-level `const NAME = {…} [as const]` of `file` holds. */
function objectConst(file: string, name: string): ts.ObjectLiteralExpression | null {
  for (const statement of parse(file).statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      if (!ts.isIdentifier(declaration.name) || declaration.name.text !== name || !declaration.initializer) continue;
      let init: ts.Expression = declaration.initializer;
      while (ts.isAsExpression(init) || ts.isSatisfiesExpression(init) || ts.isParenthesizedExpression(init)) init = init.expression;
      if (ts.isObjectLiteralExpression(init)) return init;
    }
  }
  return null;
}

/** The file an identifier imported into `file` comes from (relative imports of src/ only). */
function importedFrom(file: string, name: string): string | null {
  for (const statement of parse(file).statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const bindings = statement.importClause?.namedBindings;
    if (!bindings || !ts.isNamedImports(bindings) || !bindings.elements.some((element) => element.name.text === name)) continue;
    return join(dirname(file), `${statement.moduleSpecifier.text}.ts`);
  }
  return null;
}

/** The option names of `const NAME` in `file`, its spreads followed (a spread the test cannot follow fails). */
function optionNames(file: string, name: string): string[] {
  const literal = objectConst(file, name);
  if (!literal) throw new Error(`${file}: no "const ${name} = {…}" (the docs test reads the commands' options from it)`);
  const names: string[] = [];
  for (const property of literal.properties) {
    if (ts.isPropertyAssignment(property) && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name))) {
      names.push(property.name.text);
    } else if (ts.isSpreadAssignment(property) && ts.isIdentifier(property.expression)) {
      const spread = property.expression.text;
      const source = objectConst(file, spread) ? file : importedFrom(file, spread);
      if (!source) throw new Error(`${file}: cannot find where ...${spread} comes from`);
      names.push(...optionNames(source, spread));
    } else {
      throw new Error(`${file}: an entry of ${name} the docs test cannot read: ${property.getText()}`);
    }
  }
  return names;
}

/** command → its options, for every src/cli/<command>.ts that defines OPTIONS. */
export function commandOptions(): Map<string, string[]> {
  const commands = new Map<string, string[]>();
  for (const entry of readdirSync(resolve(REPO_ROOT, CLI_DIR))) {
    if (!entry.endsWith('.ts')) continue;
    const file = `${CLI_DIR}/${entry}`;
    if (objectConst(file, 'OPTIONS')) commands.set(entry.replace(/\.ts$/, ''), optionNames(file, 'OPTIONS'));
  }
  return commands;
}

/** "option in command" pairs docs/cli.md states: rows of every table whose columns are option | commands | …. */
export function documentedPairs(): Set<string> {
  const pairs = new Set<string>();
  for (const table of tables(readRepoFile('docs/cli.md'))) {
    if (table.header[0] !== 'option' || table.header[1] !== 'commands') continue;
    for (const row of table.rows) {
      const option = /^--([\w-]+)/.exec(codeSpans(row[0])[0] ?? '')?.[1];
      if (!option) throw new Error(`docs/cli.md: an options row whose first cell is no \`--option\`: "${row[0]}"`);
      for (const command of row[1].split(',').map((c) => c.trim())) pairs.add(`--${option} in ${command}`);
    }
  }
  return pairs;
}
