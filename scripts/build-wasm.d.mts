export const WASM_FILE: string;
export const TABLES_WASM_FILE: string;
export function wasmIsStale(): boolean;
export function buildWasm(options?: { force?: boolean; quiet?: boolean }): Promise<string>;
