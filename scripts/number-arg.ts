/** `--name N` from the command line of a measuring script, or `fallback` when absent. */
export function numberArg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const value = Number(process.argv[i + 1]);
  if (!Number.isFinite(value)) throw new Error(`--${name} takes a number, not "${process.argv[i + 1] ?? ''}"`);
  return value;
}
