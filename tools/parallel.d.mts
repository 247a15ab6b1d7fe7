/** Types of ./parallel.mjs (npm test's runner). */
export function parseCommand(args: readonly string[]): { beside: string[][][]; phases: string[][][][] };
