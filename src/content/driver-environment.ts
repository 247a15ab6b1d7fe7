/** What the driver (./driver.ts) is given: the page, its adapters, the way to the background, and its timing. */
import type { Transport } from '../shared/protocol';
import type { AdapterFactory, PageBridge } from './adapters/types';

export interface DriverTiming {
  /** How long a move may take to show before it counts as ignored. */
  readonly settleTimeoutMs: number;
  /** Waits before re-sending a move the page ignored (some pages drop input while animating). */
  readonly retryBackoffMs: readonly number[];
  /** Waits before re-asking the solver when the background went away mid-request. */
  readonly solverRetryMs: readonly number[];
}

export const DEFAULT_TIMING: DriverTiming = {
  settleTimeoutMs: 800,
  retryBackoffMs: [150, 300, 600],
  solverRetryMs: [100, 300, 700, 1_500],
};

export interface DriverEnvironment {
  readonly document: Document;
  readonly window: Window;
  readonly adapters: readonly AdapterFactory[];
  readonly bridge?: PageBridge;
  /** Delivers a runtime message to the background and resolves with its raw reply (the protocol validates it). */
  readonly sendMessage: Transport;
  readonly timing?: Partial<DriverTiming>;
  readonly now?: () => number;
  /** Publish performance entries ('autopilot:detect', 'autopilot:read'); default true. */
  readonly measure?: boolean;
  /** False once this script has lost its extension (reloaded, updated): no key may be sent then. Default: always true. */
  readonly alive?: () => boolean;
}
