/**
 * The adapter registry, in order of preference when two are equally confident:
 * store > saved-state > classic > geometry > canvas.
 */
import { canvasAdapter } from './canvas';
import { classicAdapter } from './classic';
import { geometryAdapter } from './geometry';
import { savedStateAdapter } from './saved-state';
import { storeAdapter } from './store';
import type { AdapterFactory } from './types';

export const ADAPTERS: readonly AdapterFactory[] = [storeAdapter, savedStateAdapter, classicAdapter, geometryAdapter, canvasAdapter];
