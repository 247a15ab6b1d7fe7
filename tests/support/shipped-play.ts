/** The shipped network's recorded one-ply games (tools/record-network-play.ts writes them; network-stages.test.ts reads them). */
export interface ShippedPlay {
  readonly note: string;
  readonly file: string;
  readonly sha256: string;
  readonly stages: readonly number[];
  readonly games: readonly {
    readonly seed: number;
    readonly moves: number;
    readonly score: number;
    readonly movesHash: string;
    readonly sample: readonly { readonly lo: number; readonly hi: number; readonly value: number }[];
  }[];
}

export const SHIPPED_PLAY = new URL('../fixtures/network/shipped-play.json', import.meta.url);
