import { appendRecord, type AppendedRecord, type ChainPosition } from './append-record.js';
import type { UnlinkedRecord } from './record-schemas.js';

/**
 * The one writer of a chain within a process that holds the target's lock for several attempts
 * at once: appends and reads are queued and done one at a time, each append linked to the tip
 * the previous one left, so concurrent attempts never fork the chain. A record is built only
 * when its turn comes, from the position it will be linked to (an intent names the torn tail its
 * append cuts). An append that fails leaves the position where it was: appendRecord withdraws a
 * line cut short, and a chain moved underneath (ChainMovedError) refuses every later append too,
 * never forks. A read waits for the appends before it, and the appends after it wait for the
 * read: a reader never meets a line being written.
 */
export class SerialAppender {
  readonly chain: string;
  #position: ChainPosition;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(chain: string, position: ChainPosition) {
    this.chain = chain;
    this.#position = position;
  }

  /** The record `build` makes, appended at the tip, fsync'd before this resolves. */
  append(build: (position: ChainPosition) => UnlinkedRecord): Promise<AppendedRecord> {
    return this.#inTurn(async () => {
      const appended = await appendRecord(this.chain, this.#position, build(this.#position));
      this.#position = appended.position;
      return appended;
    });
  }

  /** `read` run with no append under way, and none started until it ends. */
  read<T>(read: () => Promise<T>): Promise<T> {
    return this.#inTurn(read);
  }

  #inTurn<T>(work: () => Promise<T>): Promise<T> {
    const turn = this.#queue.then(work);
    // The next turn waits for this one to end, whatever it ended with.
    this.#queue = turn.catch(() => undefined);
    return turn;
  }
}
