/** Types of ./parallel.mjs (npm test's runner). */
export function parsePhases(args: readonly string[]): string[][][][];
