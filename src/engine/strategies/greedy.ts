import type { Strategy } from '../types';
import { priority } from './priority';
export const greedy: Strategy = { ...priority, name: 'greedy' };
