/**
 * The main-world agent's alphabets: a part of the agent (src/page/main-world.ts, whose header holds the threat
 * model), written into its body by the build (build/vite-main-world.ts). Like the agent it is self-contained:
 * no import but types, no module-level binding. Characters are looked up by indexing tables without a
 * prototype, never through a method of the page's String.prototype.
 */

/** The agent's tables: the codes of the printable ASCII characters, and checks of the keys and of what it sends. */
export function agentText(): {
  /** The code of each printable ASCII character (32–126), undefined for any other. */
  readonly code: Record<string, number>;
  /** `value` is a string of `min`–`max` characters of the keys' alphabet (URL-safe base64). */
  readonly wellFormed: (value: unknown, min: number, max: number) => boolean;
  /** The characters of `value` that are printable, other than quote and backslash, `max` at most. */
  readonly clean: (value: unknown, max: number) => string;
} {
  const PRINTABLE = ' !"#$%&\'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~';
  const CODE: Record<string, number> = { __proto__: null } as unknown as Record<string, number>;
  for (let i = 0; i < PRINTABLE.length; i++) CODE[PRINTABLE[i]] = 32 + i;
  const SECRET_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const SECRET_SET: Record<string, boolean> = { __proto__: null } as unknown as Record<string, boolean>;
  for (let i = 0; i < SECRET_CHARS.length; i++) SECRET_SET[SECRET_CHARS[i]] = true;

  const wellFormed = (value: unknown, min: number, max: number): boolean => {
    if (typeof value !== 'string' || value.length < min || value.length > max) return false;
    for (let i = 0; i < value.length; i++) if (SECRET_SET[value[i]] !== true) return false;
    return true;
  };
  const clean = (value: unknown, max: number): string => {
    if (typeof value !== 'string') return '';
    let out = '';
    for (let i = 0; i < value.length && out.length < max; i++) {
      const c = value[i];
      if (CODE[c] !== undefined && c !== '"' && c !== '\\') out += c;
    }
    return out;
  };
  return { code: CODE, wellFormed, clean };
}
