/**
 * What the engine (src/engine/) asks of the JavaScript runtime it runs in: the few globals that browsers,
 * Web Workers and Node all have. tsconfig.engine.json type-checks the engine with these alone (no DOM, no
 * extension API, no Node types), so an engine file that reaches for anything else does not compile.
 */
declare const performance: { now(): number };
declare function setTimeout(callback: () => void, ms?: number): unknown;

interface AbortSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  throwIfAborted(): void;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

interface MessagePort {
  onmessage: ((event: unknown) => void) | null;
  postMessage(message: unknown): void;
  close(): void;
}
declare class MessageChannel {
  readonly port1: MessagePort;
  readonly port2: MessagePort;
}

declare class TextEncoder {
  encode(text: string): Uint8Array;
}
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean });
  decode(bytes: ArrayBufferView | ArrayBuffer): string;
}

type BufferSource = ArrayBufferView | ArrayBuffer;

declare namespace WebAssembly {
  class Module {
    constructor(bytes: BufferSource);
  }
  class Instance {
    constructor(module: Module, imports?: Imports);
    readonly exports: Record<string, unknown>;
  }
  class Memory {
    constructor(descriptor: { initial: number; maximum?: number; shared?: boolean });
    readonly buffer: ArrayBuffer | SharedArrayBuffer;
    grow(pages: number): number;
  }
  type ImportValue = ((...args: never[]) => unknown) | Memory | number;
  type Imports = Record<string, Record<string, ImportValue>>;
  interface WebAssemblyInstantiatedSource {
    readonly module: Module;
    readonly instance: Instance;
  }
  function instantiate(bytes: BufferSource, imports?: Imports): Promise<WebAssemblyInstantiatedSource>;
  function instantiate(module: Module, imports?: Imports): Promise<Instance>;
}
