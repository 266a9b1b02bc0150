import type { PendingEnd } from '../simulation/rank-clock.ts';
import type { Work } from './dist-api.ts';

/**
 * The one `Work` of a call in flight (torch.distributed's Work, declared for readers in dist-api.ts): it
 * carries the call's virtual end, which the compute clock waits on where the program waits, and its result.
 * Both sit in private fields: a reader's program sees only `wait` and `isCompleted`.
 */
export class CallWork<T> implements Work<T> {
  readonly #result: Promise<T>;
  readonly #end: PendingEnd | undefined;
  readonly wait: () => Promise<T>;
  readonly isCompleted: () => boolean;

  /**
   * `beforeWait` runs at every `wait()` (the dist's handle moves the compute clock there); without
   * `isCompleted` the Work tracks its own result, and a rejection nobody waits for is not unhandled.
   */
  constructor(
    result: Promise<T>,
    end: PendingEnd | undefined,
    opts: { beforeWait?: () => void; isCompleted?: () => boolean } = {},
  ) {
    this.#result = result;
    this.#end = end;
    const beforeWait = opts.beforeWait;
    this.wait = beforeWait
      ? () => {
          beforeWait();
          return result;
        }
      : () => result;
    if (opts.isCompleted) {
      this.isCompleted = opts.isCompleted;
      return;
    }
    let completed = false;
    const done = () => {
      completed = true;
    };
    result.then(done, done);
    this.isCompleted = () => completed;
  }

  /** The call's virtual end (undefined for a call that takes no virtual time, or a Work made elsewhere). */
  static endOf(work: Work<unknown>): PendingEnd | undefined {
    return #end in work ? work.#end : undefined;
  }

  /** The call's result without moving the compute clock (undefined for a Work made elsewhere). */
  static resultOf<R>(work: Work<R>): Promise<R> | undefined {
    return #result in work ? (work.#result as Promise<unknown> as Promise<R>) : undefined;
  }
}
