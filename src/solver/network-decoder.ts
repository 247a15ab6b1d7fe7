/**
 * The loader worker of the solver pool (./pool.ts): one worker that decodes the learned network (into the shared
 * memory when there is one, see ./network-supply.ts), reports its progress, and is terminated once the workers
 * that search hold the network. A loader that stops making progress for the setup limit counts as failed (one
 * that progresses goes on: on a busy machine, with the heuristic searching beside it, a decoding can take longer
 * than the limit).
 */
import { parseWorkerResponse } from './protocol';
import type { WorkerRequest } from './protocol';
import type { NetworkSupply } from './network-supply';
import { networkFailure } from './network-loader';
import type { SolverWorker } from './pool-api';

/** What the loader asks of its pool. */
export interface DecoderHost {
  /** The loader is done with (it stalled, failed or crashed, or put the network into the shared memory): end it. */
  stop(): void;
  /** The network's state changed: let the pool hand it out or go on without it. */
  pump(): void;
}

export class NetworkDecoder {
  /** The network is decoded (the loader may still hold weights until the workers hold theirs). */
  done = false;
  private ended = false;
  private timer: ReturnType<typeof setTimeout>;

  constructor(
    private readonly network: NetworkSupply,
    private readonly worker: SolverWorker,
    private readonly id: number,
    private readonly host: DecoderHost,
  ) {
    this.timer = this.stalled();
    worker.onmessage = (event) => this.onMessage(event.data);
    worker.onerror = () => {
      if (this.ended) return;
      this.host.stop();
      network.crashed();
    };
  }

  /** Send the loader its request (with a shared memory the file moves to it: nothing of it stays here). */
  start(request: WorkerRequest, transfer: boolean): void {
    const network = this.network;
    try {
      this.worker.postMessage(request, transfer && request.type === 'network-load' ? [request.file.buffer] : []);
    } catch (err) {
      // The shared memory cannot go to a worker (its context is not cross-origin isolated): one copy per worker.
      this.host.stop();
      if (network.shared) network.unshareable();
      else network.fail(networkFailure(err));
      this.host.pump();
    }
  }

  /** Terminate the loader, handing it `weights` first (they end with it instead of waiting for a collection here). */
  end(weights: Int16Array | Float32Array | null): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.timer);
    const worker = this.worker;
    worker.onmessage = null;
    worker.onerror = null;
    if (weights) {
      try {
        worker.postMessage({ type: 'network-drop', weights }, [weights.buffer]);
      } catch {
        // then they wait for a collection here
      }
    }
    worker.terminate();
  }

  private stalled(): ReturnType<typeof setTimeout> {
    return setTimeout(() => {
      this.host.stop();
      this.network.crashed();
    }, this.network.setupLimitMs);
  }

  private onMessage(data: unknown): void {
    const network = this.network;
    const response = parseWorkerResponse(data);
    if (this.ended || !response || !('id' in response) || response.id !== this.id) return;
    if (response.type === 'network-progress') {
      clearTimeout(this.timer);
      this.timer = this.stalled();
      network.decoding(response.fraction);
    } else if (response.type === 'network-ready') {
      this.done = true;
      clearTimeout(this.timer);
      network.decoded(response.descriptor, response.weights);
      if (network.shared) this.host.stop();
      this.host.pump();
    } else if (response.type === 'network-failed') {
      this.host.stop();
      network.fail(response.reason);
    }
  }
}
