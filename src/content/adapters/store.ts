/**
 * store — a play2048.co-style page (docs: sites.md, "play2048.co"): the board is a canvas, the game is an ES module whose
 * export has subscribe / move / sanitize. The main-world agent (src/page/main-world.ts) finds it,
 * pushes its state through the bridge, and calls its own `move`, so synthetic keys (which such a page
 * may ignore) are never needed.
 *
 * States: "fresh" / "playing" → playing, "gameWon" → won (continue per settings), "gameOver" → over;
 * any other state (a powerup selection, ...) is 'unknown': the driver pauses and names it.
 * Keep playing: the store's own continueAfterWin, then its published state must have left "gameWon"
 * (asked once more if not; 'still-shown' when it stays).
 *
 * Checked on: tests/fixtures/pages/play2048-like.
 */
import type { Direction, Grid } from '../../engine/types';
import { StoreFindResultSchema, StoreSnapshotSchema } from '../../shared/bridge-protocol';
import type { StoreSnapshot } from '../../shared/bridge-protocol';
import { canvasBoardRect } from './canvas';
import { checkTile, isBoardSize, waitForBoard } from './common';
import { waitUntil } from './game-end';
import { BoardReadError } from './types';
import { EditableFocusError, focusedEditable } from '../keys';
import type { Adapter, AdapterContext, AdapterFactory, BoardReading, BoardRect, ContinueResult, GameStatus, PageBridge, SettleResult } from './types';

type ConnectableBridge = PageBridge & { connect?: (timeoutMs?: number) => Promise<boolean> };

export function readingFromSnapshot(snapshot: StoreSnapshot): BoardReading {
  const rows = snapshot.board.length;
  const cols = snapshot.board[0]?.length ?? 0;
  if (!isBoardSize(rows, cols)) throw new BoardReadError('boardSize', rows, cols);
  const cells: number[] = [];
  snapshot.board.forEach((row, r) => {
    if (row.length !== cols) throw new BoardReadError('boardChanged');
    row.forEach((value, c) => cells.push(checkTile(value, r, c)));
  });
  let status: GameStatus;
  let note: BoardReading['note'];
  switch (snapshot.state) {
    case 'fresh':
    case 'playing':
      status = 'playing';
      break;
    case 'gameWon':
      status = 'won';
      break;
    case 'gameOver':
      status = 'over';
      break;
    default:
      status = 'unknown';
      // A fixed code: the state name comes from the page, which must not write into the popup.
      note = /powerup/i.test(snapshot.state) ? 'pausedPowerup' : 'pausedUnknownState';
  }
  const reading: BoardReading = { grid: { rows, cols, cells }, score: snapshot.score, status };
  return note ? { ...reading, note } : reading;
}

export class StoreAdapter implements Adapter {
  readonly name = 'store';
  private latest: StoreSnapshot | null = null;
  private readonly notify = new Set<() => void>();
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly context: AdapterContext) {}

  private get bridge(): ConnectableBridge | undefined {
    return this.context.bridge as ConnectableBridge | undefined;
  }

  private listen(bridge: PageBridge): void {
    if (this.unsubscribe) return;
    this.unsubscribe = bridge.on('store/state', (payload) => {
      const parsed = StoreSnapshotSchema.safeParse(payload);
      if (!parsed.success) return;
      this.latest = parsed.data;
      for (const n of this.notify) n();
    });
  }

  async detect(): Promise<number> {
    const bridge = this.bridge;
    if (!bridge) return 0;
    if (bridge.connect && !(await bridge.connect(400))) return 0;
    this.listen(bridge);
    try {
      const result = StoreFindResultSchema.safeParse(await bridge.request('store/find', undefined, 4_000));
      if (!result.success || !result.data.found) return 0;
      if (result.data.snapshot) this.latest = result.data.snapshot;
      if (!this.latest) {
        const snapshot = StoreSnapshotSchema.safeParse(await bridge.request('store/snapshot', undefined, 1_000));
        if (snapshot.success) this.latest = snapshot.data;
      }
    } catch {
      return 0;
    }
    return this.latest ? 0.95 : 0;
  }

  readBoard(): BoardReading {
    if (!this.latest) throw new BoardReadError('notPublished');
    return readingFromSnapshot(this.latest);
  }

  /** The store's own move — never while a text field has focus, as for a key (the person is typing). */
  async sendMove(direction: Direction): Promise<void> {
    const typing = focusedEditable(this.context.document);
    if (typing) throw new EditableFocusError(typing);
    const bridge = this.bridge;
    if (!bridge) throw new BoardReadError('noPageScript');
    await bridge.request('store/move', { direction }, 1_000);
  }

  settled(previous: Grid, timeoutMs: number, expected?: Direction): Promise<SettleResult> {
    return waitForBoard({
      window: this.context.window,
      observe: [],
      read: () => this.readBoard(),
      previous,
      expected,
      timeoutMs,
      subscribe: (n) => {
        this.notify.add(n);
        return () => this.notify.delete(n);
      },
    });
  }

  /** The store has no DOM: the board is the page's canvas (play2048.co draws it on one). */
  boardRect(): BoardRect | null {
    return canvasBoardRect(this.context.document);
  }

  async continueAfterWin(): Promise<ContinueResult> {
    const bridge = this.bridge;
    if (!bridge) return 'no-control';
    const won = (): boolean => this.latest?.state === 'gameWon';
    for (let attempt = 0; attempt < 2; attempt++) {
      if ((await bridge.request('store/continue', undefined, 1_000)) !== true) return attempt === 0 ? 'no-control' : 'still-shown';
      // The store publishes its new state (pushed before the reply); ask for it when no push came.
      if (won()) {
        try {
          const snapshot = StoreSnapshotSchema.safeParse(await bridge.request('store/snapshot', undefined, 1_000));
          if (snapshot.success) this.latest = snapshot.data;
        } catch {
          // judged on the pushes below
        }
      }
      if (await waitUntil(() => !won(), 300)) return 'continued';
    }
    return 'still-shown';
  }
}

export const storeAdapter: AdapterFactory = {
  name: 'store',
  rank: 5,
  create: (context) => new StoreAdapter(context),
};
