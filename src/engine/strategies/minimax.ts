import type { Strategy } from '../types';
import { priority } from './priority';
export const minimax: Strategy = { ...priority, name: 'minimax' };
