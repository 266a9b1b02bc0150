/**
 * Logical ranks: one worker thread hosting several ranks of a run (see cluster-core.ts, which picks how many
 * workers a world gets). Each hosted rank runs its own instance of the reader's program against the same
 * shared-memory collectives as a rank with a worker of its own, so a program computes the same numbers
 * whichever way its ranks are placed.
 *
 * What the ranks of one thread share is the thread's globals: tfjs's engine (its variable registry, tensor
 * counts, kernel hooks), `console`, the current `dist` and plot sink. So the ranks take turns: one rank holds
 * the thread's turn at a time, and only its code (the program and the library under it) runs; each turn
 * begins by installing that rank's globals (`Turn.enter`). A rank gives its turn up when it is idle: at the
 * first macrotask after it got the turn, by which point everything it could run without waiting (its
 * microtasks) has run. It gets the turn back, in arrival order, when what it waits for is there: a collective's
 * result (create-dist.ts asks through `RankEnv.resume`) or a timer it set (the program's `setTimeout` and
 * `setInterval` are the host's, see `scopeFor`). The collectives' own waits never need a turn: they run the
 * same rank-independent code for whichever rank they serve, and yield to the event loop (EngineEnv.hosted).
 */

/** One hosted rank as the host sees it. */
export interface Turn {
  readonly rank: number;
  /** Installs this rank's globals; called each time it gets the turn. */
  enter(): void;
}

/** Calls `fn` in a later macrotask (after every pending microtask), in order. */
function taskQueue(): (fn: () => void) => void {
  const immediate = (globalThis as { setImmediate?: (fn: () => void) => unknown }).setImmediate;
  if (typeof immediate === 'function') return (fn) => void immediate(fn);
  const pending: (() => void)[] = [];
  const channel = new MessageChannel();
  channel.port1.onmessage = () => pending.shift()?.();
  return (fn) => {
    pending.push(fn);
    channel.port2.postMessage(0);
  };
}

export class RankHost {
  readonly #afterTask = taskQueue();
  #holder: Turn | null = null;
  /** Turns asked for, in order; one entry per rank, with every waiter of that rank. */
  readonly #waiting = new Map<Turn, (() => void)[]>();
  readonly #done = new Set<Turn>();
  readonly #turns = new Set<Turn>();
  #grants = 0;

  /** The rank whose code runs now, if any. */
  get holder(): Turn | null {
    return this.#holder;
  }

  /**
   * Tells peers which rank runs on this thread now (null: none), so a wait on any rank of the thread is judged by
   * that rank; one call a turn for the whole thread (rank-main.ts sets it once the ranks joined their world).
   */
  showHolder: ((holder: number | null) => void) | null = null;

  /** Counts `turn` among the ranks of this thread. */
  join(turn: Turn): void {
    this.#turns.add(turn);
  }

  /** The rank that joined this thread first: its call block holds the thread's turn (see showHolder). */
  get lead(): number | undefined {
    return this.#turns.values().next().value?.rank;
  }

  #setHolder(turn: Turn | null): void {
    this.#holder = turn;
    this.showHolder?.(turn?.rank ?? null);
  }

  /** Resolves once `turn` holds the thread (at once if it already does, or has exited). */
  acquire(turn: Turn): Promise<void> {
    if (this.#holder === turn || this.#done.has(turn)) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const waiters = this.#waiting.get(turn);
      if (waiters) waiters.push(resolve);
      else this.#waiting.set(turn, [resolve]);
      this.#grantNext();
    });
  }

  /** The rank's program ended: it never takes a turn again, and the next waiting rank runs. */
  exit(turn: Turn): void {
    this.#done.add(turn);
    for (const resolve of this.#waiting.get(turn) ?? []) resolve();
    this.#waiting.delete(turn);
    if (this.#holder === turn) {
      this.#setHolder(null);
      this.#grantNext();
    }
  }

  #grantNext(): void {
    if (this.#holder) return;
    const next = this.#waiting.entries().next();
    if (next.done) return;
    const [turn, waiters] = next.value;
    this.#waiting.delete(turn);
    this.#setHolder(turn);
    turn.enter();
    for (const resolve of waiters) resolve();
    const grant = ++this.#grants;
    // Everything this turn can run without waiting runs in microtasks of the resolutions above; the next
    // macrotask finds it idle, waiting for a peer, a timer or the end.
    this.#afterTask(() => {
      if (this.#holder !== turn || this.#grants !== grant) return;
      this.#setHolder(null);
      this.#grantNext();
    });
  }

  /**
   * What the program of `turn` sees as its timers and global object: a timer's callback runs only once the rank
   * holds the thread again, and what the program sets on `globalThis` (or `self`) is its own, not its
   * thread-mates' (their module state is apart already: each runs its own instance of the program).
   */
  scopeFor(turn: Turn): ProgramScope {
    const later = (fn: unknown, args: unknown[]) => (): void =>
      void this.acquire(turn).then(() => {
        if (typeof fn === 'function') (fn as (...a: unknown[]) => void)(...args);
      });
    const timers = {
      setTimeout: ((fn: unknown, ms?: number, ...args: unknown[]) =>
        setTimeout(later(fn, args), ms)) as typeof setTimeout,
      setInterval: ((fn: unknown, ms?: number, ...args: unknown[]) =>
        setInterval(later(fn, args), ms)) as typeof setInterval,
    };
    const global = ownGlobal(timers);
    return { ...timers, globalThis: global, self: global, console: globalThis.console };
  }
}

/** The timers and global object a program sees in place of the thread's. */
export interface ProgramScope {
  setTimeout: typeof setTimeout;
  setInterval: typeof setInterval;
  globalThis: typeof globalThis;
  self: typeof globalThis | undefined;
  /** The rank's own console (rank-main.ts sets it), so a line printed off its turn still goes to its pane. */
  console: Console;
}

/** A rank with the thread to itself uses the thread's own. */
export const ownThreadScope = (): ProgramScope => ({
  setTimeout: globalThis.setTimeout.bind(globalThis),
  setInterval: globalThis.setInterval.bind(globalThis),
  globalThis,
  self: (globalThis as { self?: typeof globalThis }).self,
  console: globalThis.console,
});

/**
 * The thread's global object as one rank sees it: reads fall through to the real one (its functions called on
 * it, as host functions require), writes and deletes stay with this rank.
 */
function ownGlobal(overrides: Record<string, unknown>): typeof globalThis {
  const own = new Map<string | symbol, PropertyDescriptor>(
    Object.entries(overrides).map(([k, value]) => [
      k,
      { value, writable: true, enumerable: true, configurable: true },
    ]),
  );
  const deleted = new Set<string | symbol>();
  // A name the real global holds non-configurable (the scope seal's locked names, NaN, undefined…) is the
  // same for every rank: a proxy may not report it otherwise (its invariants), and no rank may take it back.
  const locked = (key: string | symbol) =>
    Reflect.getOwnPropertyDescriptor(globalThis, key)?.configurable === false;
  const hostValue = (target: typeof globalThis, key: string | symbol) => {
    const value: unknown = Reflect.get(target, key, target);
    // A host function (fetch, atob, queueMicrotask…) must be called on the real global; a constructor
    // (Array, Promise, Float32Array…) has a prototype and is returned as it is, statics and identity intact.
    return typeof value === 'function' && !('prototype' in value)
      ? (value as (...a: unknown[]) => unknown).bind(target)
      : value;
  };
  return new Proxy(globalThis, {
    get(target, key) {
      if (locked(key)) return Reflect.get(target, key, target);
      const mine = own.get(key);
      if (mine) return mine.get ? mine.get.call(target) : mine.value;
      if (deleted.has(key)) return undefined;
      return hostValue(target, key);
    },
    set(target, key, value) {
      if (locked(key)) return Reflect.set(target, key, value, target);
      own.set(key, { value, writable: true, enumerable: true, configurable: true });
      deleted.delete(key);
      return true;
    },
    has: (target, key) =>
      locked(key) || own.has(key) || (!deleted.has(key) && Reflect.has(target, key)),
    deleteProperty(_target, key) {
      if (locked(key)) return false;
      own.delete(key);
      deleted.add(key);
      return true;
    },
    defineProperty(target, key, descriptor) {
      if (locked(key)) return Reflect.defineProperty(target, key, descriptor);
      own.set(key, { configurable: true, ...descriptor });
      deleted.delete(key);
      return true;
    },
    getOwnPropertyDescriptor(target, key) {
      if (locked(key)) return Reflect.getOwnPropertyDescriptor(target, key);
      const mine = own.get(key);
      if (mine) return { ...mine, configurable: true };
      if (deleted.has(key)) return undefined;
      const d = Reflect.getOwnPropertyDescriptor(target, key);
      return d && { ...d, configurable: true };
    },
    ownKeys: (target) => [
      ...new Set([...Reflect.ownKeys(target).filter((k) => !deleted.has(k)), ...own.keys()]),
    ],
  });
}
