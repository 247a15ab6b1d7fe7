// @vitest-environment jsdom
/**
 * The command router of the content script: coach mode and the autopilot exclude each other, a Hint
 * while coaching answers from the coach's search, a Hint otherwise points its arrow until the person's
 * next trusted input, and standing down ends coaching and removes every listener the router added.
 */
import { describe, expect, it } from 'vitest';
import { CommandRouter } from '../../../src/content/commands';
import type { Command, ReplyOf, RunStatus } from '../../../src/shared/messages';
import type { MoveChoice } from '../../../src/engine/types';
import { DEFAULT_SETTINGS } from '../../../src/shared/settings';

type Reply = ReplyOf<'content/command'>;

const status = { running: false, updatedAt: 0 } as unknown as RunStatus;
const choice = { strategy: 'expectimax', move: 'left', values: {}, depth: 3, nodes: 10, ms: 5 } as unknown as MoveChoice;

function setup() {
  const calls: string[] = [];
  const rect = { left: 0, top: 0, width: 100, height: 100 };
  const driver = {
    isRunning: false,
    boards: { current: { boardRect: () => rect } },
    getStatus: () => status,
    async handleCommand(command: Command): Promise<Reply> {
      calls.push(`driver:${command}`);
      if (command === 'stop') driver.isRunning = false;
      if (command === 'solve') driver.isRunning = true;
      return command === 'hint' ? { hint: choice, status } : { status };
    },
  };
  const coach = {
    isActive: false,
    async start() {
      calls.push('coach:start');
      coach.isActive = true;
    },
    stop() {
      if (coach.isActive) calls.push('coach:stop');
      coach.isActive = false;
    },
    currentChoice: (): MoveChoice | null => choice,
  };
  const overlay = {
    shown: null as string | null,
    show(move: string) {
      overlay.shown = move;
    },
    hide() {
      overlay.shown = null;
    },
  };
  const added = new Map<string, number>();
  const win = {
    addEventListener(type: string) {
      added.set(type, (added.get(type) ?? 0) + 1);
    },
    removeEventListener(type: string) {
      added.set(type, (added.get(type) ?? 0) - 1);
    },
  };
  const router = new CommandRouter(
    driver as never,
    coach as never,
    overlay as never,
    win as unknown as Window,
  );
  const listening = (): number => [...added.values()].reduce((a, b) => a + b, 0);
  return { router, driver, coach, overlay, calls, listening, win };
}

describe('CommandRouter', () => {
  it('Coach stops a running autopilot first; Solve ends coaching', async () => {
    const t = setup();
    t.driver.isRunning = true;
    await t.router.handle('coach', DEFAULT_SETTINGS);
    expect(t.calls).toEqual(['driver:stop', 'coach:start']);
    await t.router.handle('solve', DEFAULT_SETTINGS);
    expect(t.calls).toEqual(['driver:stop', 'coach:start', 'coach:stop', 'driver:solve']);
    expect(t.coach.isActive).toBe(false);
  });

  it('a Hint while coaching answers with the coach\'s search, no second search', async () => {
    const t = setup();
    await t.router.handle('coach', DEFAULT_SETTINGS);
    const reply = await t.router.handle('hint', DEFAULT_SETTINGS);
    expect(reply.hint).toBe(choice);
    expect(t.calls).toEqual(['coach:start']);
  });

  it('a Hint outside coach mode points its move until the next command, then its listeners go', async () => {
    const t = setup();
    await t.router.handle('hint', DEFAULT_SETTINGS);
    expect(t.overlay.shown).toBe('left');
    expect(t.listening()).toBeGreaterThan(0);
    await t.router.handle('step', DEFAULT_SETTINGS);
    expect(t.overlay.shown).toBeNull();
    expect(t.listening()).toBe(0);
  });

  it('standing down ends coaching, hides the arrow and removes the Hint\'s listeners', async () => {
    const t = setup();
    await t.router.handle('hint', DEFAULT_SETTINGS);
    t.coach.isActive = true; // coaching started from another path: dispose must end it too
    t.router.dispose();
    expect(t.coach.isActive).toBe(false);
    expect(t.overlay.shown).toBeNull();
    expect(t.listening()).toBe(0);
  });
});
