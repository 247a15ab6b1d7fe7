/**
 * Test pages that are another page with a few scripts of their own (tests/e2e/pages/<name>/page.json): one
 * template, the page named in `of` (a folder's index.html under the same server), instead of a copy of its
 * markup in each. What a variant says:
 *
 *   { "of": "tests/fixtures/pages/play2048-like", "about": "what the page is for",
 *     "first": ["./agents.js"],            classic scripts before anything else in <head>
 *     "modules": ["./store.js"],           module scripts in place of the template's own (default: keep them)
 *     "after": ["./count.js"] }            module scripts after the template's
 *
 * The template's relative URLs (`./assets/…`) are made absolute (`/pages/play2048-like/assets/…`), so the
 * variant loads the template's game and styles, never a copy.
 */
import { readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { z } from 'zod';

const VariantSchema = z
  .object({
    of: z.string().min(1),
    about: z.string().min(1),
    first: z.array(z.string().min(1)).optional(),
    modules: z.array(z.string().min(1)).optional(),
    after: z.array(z.string().min(1)).optional(),
  })
  .strict();
type Variant = z.infer<typeof VariantSchema>;

/** Where the template's folder is served: the mount whose folder holds it. */
export interface TemplateMount {
  readonly prefix: string;
  readonly dir: string;
}

const MODULE_SCRIPT = /^\s*<script type="module"[^>]*><\/script>\n/gm;

function escapeComment(text: string): string {
  return text.replace(/--/g, '- -');
}

/** The variant's HTML: the template with its scripts, or null when `folder` holds no page.json. */
export async function renderVariant(folder: string, repoRoot: string, mounts: readonly TemplateMount[]): Promise<string | null> {
  let raw: string;
  try {
    raw = await readFile(join(folder, 'page.json'), 'utf8');
  } catch {
    return null;
  }
  const variant: Variant = VariantSchema.parse(JSON.parse(raw));
  const templateDir = resolve(repoRoot, variant.of);
  const mount = mounts.find((m) => !relative(resolve(m.dir), templateDir).startsWith('..'));
  if (!mount) throw new Error(`page.json in ${folder}: ${variant.of} is not served`);
  const base = `${mount.prefix}${relative(resolve(mount.dir), templateDir).split('\\').join('/')}/`;
  let html = await readFile(join(templateDir, 'index.html'), 'utf8');
  html = html.replace(/(src|href)="\.\//g, `$1="${base}`);
  html = html.replace(/<!--[\s\S]*?-->/, `<!--\n  ${escapeComment(variant.about)}\n  (rendered from ${variant.of}/index.html by tests/harness/page-variants.ts)\n-->`);
  const script = (src: string, module: boolean): string => `  <script${module ? ' type="module"' : ''} src="${src}"></script>\n`;
  if (variant.modules) {
    let replaced = false;
    html = html.replace(MODULE_SCRIPT, () => {
      if (replaced) return '';
      replaced = true;
      return variant.modules?.map((src) => script(src, true)).join('') ?? '';
    });
  }
  const first = (variant.first ?? []).map((src) => script(src, false)).join('');
  // Right after the charset (it must come first), before the template's own scripts and styles.
  if (first) html = html.replace(/(<head>\n(?:\s*<meta charset[^>]*>\n)?)/, `$1${first}`);
  const after = (variant.after ?? []).map((src) => script(src, true)).join('');
  if (after) html = html.replace(/(\n<\/head>)/, `\n${after.replace(/\n$/, '')}$1`);
  return html;
}
