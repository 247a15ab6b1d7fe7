export const WASM_FILE: string;
export const SHARED_WASM_FILE: string;
export const SHARED_MAX_PAGES: number;
export const TABLES_WASM_FILE: string;
export const TRAIN_WASM_FILE: string;
export const TRAIN_MAX_PAGES: number;
export function wasmIsStale(): boolean;
export function buildWasm(options?: { force?: boolean; quiet?: boolean }): Promise<string>;
