import type { Strategy } from '../types';
import { priority } from './priority';
export const montecarlo: Strategy = { ...priority, name: 'montecarlo' };
