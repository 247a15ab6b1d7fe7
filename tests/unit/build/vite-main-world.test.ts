/**
 * The build plugin that writes the main-world agent's parts into its body (build/vite-main-world.ts): on the
 * agent itself, and what it refuses (a part that imports a value, an import from elsewhere, a part not found).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { inlineAgentParts } from '../../../build/vite-main-world';

const AGENT = fileURLToPath(new URL('../../../src/page/main-world.ts', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'agent-parts-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** An agent module importing `imports`, beside the given part files, inlined. */
function inlineWith(imports: string, parts: Record<string, string>): string {
  for (const [name, text] of Object.entries(parts)) writeFileSync(join(scratch, `${name}.ts`), text);
  const code = `${imports}\nexport function agent(): number {\n  return new (class { start(): number { return part(); } })().start();\n}\n`;
  return inlineAgentParts(code, join(scratch, 'main-world.ts')).code;
}

describe('the main-world agent’s parts', () => {
  it('are written at the top of its start method, their imports gone, the type-only ones kept', () => {
    const { code, parts } = inlineAgentParts(readFileSync(AGENT, 'utf8'), AGENT);
    expect(parts.map((file) => file.slice(file.lastIndexOf('/') + 1)).sort()).toEqual(['agent-hmac.ts', 'agent-page.ts', 'agent-store.ts', 'agent-text.ts']);
    expect(code).not.toMatch(/^import \{[^}]*\} from '\.\/agent-/m);
    expect(code).toMatch(/^import type \{ AgentHooks \} from '\.\/agent-page';/m);
    const start = code.indexOf('start(secret: string');
    for (const name of ['agentText', 'agentHmac', 'agentPage', 'agentStore']) {
      expect(code.indexOf(`\nfunction ${name}(`)).toBeGreaterThan(start);
    }
  });

  it('refuses a part that imports a value, an import from elsewhere, and a part without the function', () => {
    const part = 'export function part(): number {\n  return 1;\n}\n';
    expect(inlineWith("import { part } from './agent-one';", { 'agent-one': part })).toContain('start(): number {\nfunction part(): number {');
    expect(() => inlineWith("import { part } from './agent-two';", { 'agent-two': `import { x } from './x';\n${part}` })).toThrow(/imports types only/);
    expect(() => inlineWith("import { part } from './helpers';", {})).toThrow(/imports values only by name from its parts/);
    expect(() => inlineWith("import { part } from './agent-three';", { 'agent-three': 'export const part = () => 1;\n' })).toThrow(/no function part/);
  });
});
