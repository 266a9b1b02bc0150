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
  // A queue read by index (Array.shift moves every entry: 1,000 queued turns made it the hot spot in Chromium).
  let pending: (() => void)[] = [];
  let next = 0;
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    const fn = pending[next++];
    if (next === pending.length) {
      pending = [];
      next = 0;
    }
    fn?.();
  };
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
    const sources = eventSourcesOnTurn(
      (fn) => void this.acquire(turn).then(fn),
      () => this.acquire(turn),
    );
    const global = ownGlobal({ ...timers, ...sources });
    return { ...timers, ...sources, globalThis: global, self: global, console: globalThis.console };
  }
}

/**
 * What a program opens that wakes it later without a timer, made to wake it on its own turn, so the code that
 * runs then sees its own tfjs engine state and globals (a thread-mate's are installed between its turns):
 * fetch and what its Response reads resolve on the turn, and every event of a MessageChannel's ports, a
 * BroadcastChannel or a WebSocket is delivered on it (listeners and on… handlers alike).
 */
export interface EventSources {
  fetch: typeof fetch | undefined;
  MessageChannel: typeof MessageChannel | undefined;
  BroadcastChannel: typeof BroadcastChannel | undefined;
  WebSocket: typeof WebSocket | undefined;
}

function eventSourcesOnTurn(
  onTurn: (fn: () => void) => void,
  turn: () => Promise<void>,
): EventSources {
  const settle = <T>(p: Promise<T>): Promise<T> =>
    p.then(
      (v) => turn().then(() => v),
      (e: unknown) =>
        turn().then(() => {
          throw e;
        }),
    );
  // A Response's reads (json(), text(), arrayBuffer()…) settle on the turn too.
  const onTurnResponse = (r: Response) =>
    new Proxy(r, {
      get(target, key) {
        const v: unknown = Reflect.get(target, key, target);
        if (typeof v !== 'function') return v;
        return (...a: unknown[]) => {
          const out: unknown = (v as (...x: unknown[]) => unknown).apply(target, a);
          return out instanceof Promise ? settle(out) : out;
        };
      },
    });
  const host = globalThis as Partial<typeof globalThis>;
  const realFetch = host.fetch?.bind(globalThis); // a browser refuses fetch called on anything but the global
  const Channel = host.MessageChannel;
  const Broadcast = host.BroadcastChannel;
  const Socket = host.WebSocket;
  return {
    fetch:
      realFetch &&
      (((...a: Parameters<typeof fetch>) =>
        settle(realFetch(...a).then(onTurnResponse))) as typeof fetch),
    MessageChannel:
      Channel &&
      class extends Channel {
        constructor() {
          super();
          deliverOnTurn(this.port1, onTurn);
          deliverOnTurn(this.port2, onTurn);
        }
      },
    BroadcastChannel:
      Broadcast &&
      class extends Broadcast {
        constructor(name: string) {
          super(name);
          deliverOnTurn(this, onTurn);
        }
      },
    WebSocket:
      Socket &&
      (class extends Socket {
        constructor(...a: ConstructorParameters<typeof WebSocket>) {
          super(...a);
          deliverOnTurn(this, onTurn);
        }
      } as typeof WebSocket),
  };
}

type Listener = EventListenerOrEventListenerObject;

/** Makes every listener and on… handler of `target` run through `onTurn` (the event object as it came). */
function deliverOnTurn(target: EventTarget, onTurn: (fn: () => void) => void): void {
  const wrapped = new WeakMap<object, EventListener>();
  const wrap = (fn: unknown): unknown => {
    if (typeof fn !== 'function' && typeof (fn as EventListenerObject)?.handleEvent !== 'function')
      return fn;
    let w = wrapped.get(fn as object);
    if (!w) {
      w = (event: Event) =>
        onTurn(() => {
          if (typeof fn === 'function') (fn as EventListener).call(target, event);
          else (fn as EventListenerObject).handleEvent(event);
        });
      wrapped.set(fn as object, w);
    }
    return w;
  };
  const add = target.addEventListener.bind(target);
  const remove = target.removeEventListener.bind(target);
  Object.defineProperties(target, {
    addEventListener: {
      value: (type: string, fn: Listener | null, options?: AddEventListenerOptions | boolean) =>
        add(type, wrap(fn) as Listener | null, options),
    },
    removeEventListener: {
      value: (type: string, fn: Listener | null, options?: EventListenerOptions | boolean) =>
        remove(type, ((fn && wrapped.get(fn)) ?? fn) as Listener | null, options),
    },
  });
  for (let proto = Object.getPrototypeOf(target) as object | null; proto;) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const d = Object.getOwnPropertyDescriptor(proto, name);
      if (!name.startsWith('on') || !d?.set || Object.hasOwn(target, name)) continue;
      let handler: unknown = null;
      Object.defineProperty(target, name, {
        get: () => handler,
        set: (fn: unknown) => {
          handler = fn;
          d.set!.call(target, wrap(fn));
        },
        configurable: true,
      });
    }
    proto = Object.getPrototypeOf(proto) as object | null;
  }
}

/** The timers, event sources and global object a program sees in place of the thread's. */
export interface ProgramScope extends EventSources {
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
  fetch: (globalThis as Partial<typeof globalThis>).fetch?.bind(globalThis),
  MessageChannel: (globalThis as Partial<typeof globalThis>).MessageChannel,
  BroadcastChannel: (globalThis as Partial<typeof globalThis>).BroadcastChannel,
  WebSocket: (globalThis as Partial<typeof globalThis>).WebSocket,
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
