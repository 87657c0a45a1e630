/**
 * Each crank counted once, after a restart too (SLOG-FORMAT.md, "Restarts").
 * A node that crashes appends a new kernel start to its slog and runs again
 * the cranks it had not committed, with the same numbers: the analyses must
 * count the execution after the restart and not the abandoned one, which the
 * slog shows first. That is known only when the cranks run again, so this
 * sink holds back what it is given since the last commit (a chain's
 * `cosmic-swingset-commit-block-finish`), within bounds, and at a restart
 * hands the held cranks that run again to `abandoned` instead of `crank`.
 *
 * Bounded: at most MAX_HELD_ITEMS items of held cranks, MAX_HELD_ENTRIES
 * entries outside them, and at most MAX_HELD_UNCOMMITTED cranks in a
 * standalone kernel's slog (a benchmark's), MAX_HELD_BETWEEN_COMMITS in a
 * chain's (one with `cosmic-swingset-*` entries): the oldest go on as
 * committed. Entries outside cranks are held only behind a held crank (to
 * keep their order); with none held they go on at once. A restart that runs
 * again more cranks than were held has some counted twice: `mayCountTwice`
 * then says how many may be. The bound without commits is low because
 * holding costs speed: a held
 * crank outlives V8's young generation once more are held than a young
 * collection's worth of input (some 2,000 cranks), and everything read is
 * then promoted (`stats` from a pipe: 1.32 s of CPU holding 2,000 cranks on
 * big-local-1200, 0.90 s holding 500). swingset-runner, which writes those
 * slogs, commits every 200 cranks unless told otherwise (`--blockSize`).
 *
 * `fromFirstCommit`: nothing is held before the slog's first commit (a
 * benchmark's slog has none, and holding costs speed: held objects outlive
 * the young generation); a restart met before it throws RestartUnheld, for
 * the caller to read the slog again holding throughout. A chain's slog
 * commits every block: from its first commit on, a restart is met holding,
 * and the slog is read once.
 */
import { forwardSpill, type CrankSink } from './assembler.js';
import type { Crank } from './crank.js';
import type { SlogEntry } from '../scan/entry-types.js';

/** A sink that also takes the executions a restart abandoned. */
export interface ExecutionSink extends CrankSink {
  /** A crank the kernel ran, did not commit, and ran again after a restart (the later run comes to `crank`). */
  abandoned?(crank: Crank): void;
}

/** A restart met before anything was held (`fromFirstCommit`): the cranks it abandoned have gone on. */
export class RestartUnheld extends Error {
  constructor() {
    super('a restart before the first commit: read again, holding');
  }
}

/**
 * A RestartUnheld without a stack trace: a trace keeps each frame's `this`
 * (this sink, and through it all the read made) for as long as the error
 * is referenced, and a caught error can stay in the catching async
 * function's saved frame while it reads again.
 */
function restartUnheld(): RestartUnheld {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new RestartUnheld();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** What an instance that threw RestartUnheld hands on to: nothing (what its read made is garbage). */
const NO_SINK: ExecutionSink = { entry() {}, crank() {} };

/** Cranks held at most before the slog's first commit (see above). */
const MAX_HELD_UNCOMMITTED = 500;
/** Cranks held at most since the last commit, once the slog has commits (a chain's block). */
const MAX_HELD_BETWEEN_COMMITS = 10_000;
/** Items of held cranks at most, either way: the bound on memory. */
const MAX_HELD_ITEMS = 100_000;
/**
 * Entries outside cranks held at most (a restart's transcript replays
 * before its first crank, blocks without cranks): past it, a restart that
 * still waits for its first crank is given up (what was held goes on, and
 * the first crank after the restart says how many may be counted twice).
 */
const MAX_HELD_ENTRIES = 50_000;

type Held = { crank: Crank; entry?: undefined; line?: undefined } | { crank?: undefined; entry: SlogEntry; line: number };

/** What a released place holds (so that the crank is not kept alive). */
const EMPTY: Held = { entry: { type: '' }, line: 0 };

export class CommittedCranks implements CrankSink {
  /** What is held, in order: held[head..] (a queue; the front is dropped by moving `head`). */
  private held: Held[] = [];
  private head = 0;
  private heldCranks = 0;
  private heldItems = 0;
  private kernelStarts = 0;
  /** A restart was seen: held until the first crank after it says where the kernel ran again from. */
  private restartAt = -1;
  /** Cranks a restart ran again that had already gone on as committed (the bounds): counted twice. */
  mayCountTwice = 0;
  /** The slog is a chain's (commits, blocks): held between commits up to MAX_HELD_BETWEEN_COMMITS. */
  private chain = false;
  /** Entries outside cranks held. */
  private heldEntries = 0;
  /**
   * A restart's first crank is still to come, with nothing held from before
   * the restart (none was, or the restart was given up: MAX_HELD_ENTRIES):
   * that crank only says how many may be counted twice.
   */
  private awaitingAgain = false;
  /** The highest crank number that went on early. */
  private releasedEarly = -1;
  /** Executions handed to `abandoned`. */
  abandonedCount = 0;
  /** Holding (else passing everything on as it comes: `fromFirstCommit`, until the first commit). */
  private holding: boolean;
  /** Cranks have been held (a slog with commits, or every slog without `fromFirstCommit`). */
  heldAny = false;
  /** RestartUnheld was thrown: nothing more is taken. */
  private unheld = false;

  /** The open crank spills (assembler.ts): handed on at once, whatever a restart later says of the crank. */
  spill: ((crank: Crank) => void) | undefined;

  readonly syscallsUnread: boolean | undefined;

  constructor(
    private sink: ExecutionSink,
    options: { fromFirstCommit?: boolean } = {},
  ) {
    this.spill = forwardSpill(sink);
    this.syscallsUnread = sink.syscallsUnread;
    this.holding = options.fromFirstCommit !== true;
  }

  entry(entry: SlogEntry, line: number): void {
    if (this.unheld) return;
    const commit = entry.type === 'cosmic-swingset-commit-block-finish';
    if (!this.chain && entry.type.startsWith('cosmic-swingset-')) this.chain = true;
    if (entry.type === 'kernel-init-start') {
      this.kernelStarts += 1;
      if (this.kernelStarts > 1 && !this.holding) {
        // What this read made is garbage from here: nothing here keeps it (this sink may stay referenced while the input is read again).
        this.unheld = true;
        this.sink = NO_SINK;
        this.spill = undefined;
        throw restartUnheld();
      }
      if (this.kernelStarts > 1 && this.restartAt < 0) {
        if (this.heldCranks > 0) this.restartAt = this.held.length;
        else this.awaitingAgain = true;
      }
    }
    if (!this.holding) {
      this.sink.entry(entry, line);
      if (commit) this.holding = true;
      return;
    }
    if (this.heldCranks === 0 && this.restartAt < 0) {
      // Nothing held to keep it behind: it goes on now (whatever was held before it is entries too).
      this.release(this.held.length - this.head);
      this.sink.entry(entry, line);
      return;
    }
    this.held.push({ entry, line });
    this.heldEntries += 1;
    if (this.restartAt < 0) {
      if (commit) this.release(this.held.length - this.head);
      else this.trim();
    } else if (this.heldEntries > MAX_HELD_ENTRIES) {
      this.giveUpRestart();
    }
  }

  crank(crank: Crank): void {
    if (this.unheld) return;
    if (!this.holding) {
      this.sink.crank(crank);
      return;
    }
    this.heldAny = true;
    if (this.restartAt >= 0) this.settleRestart(crank);
    else if (this.awaitingAgain) this.lateRestart(crank);
    this.held.push({ crank });
    this.heldCranks += 1;
    this.heldItems += crank.items.length;
    if (this.restartAt < 0) this.trim();
  }

  /** End of input: everything held goes on. */
  end(): void {
    if (this.unheld) return;
    this.restartAt = -1;
    this.release(this.held.length - this.head);
  }

  /**
   * Where the kernel ran again from, told by the first crank after a
   * restart (Infinity: nothing ran again); the cranks from there on that
   * went on early are counted as counted twice.
   */
  private ranAgainFrom(first: Crank): number {
    const from = first.again ? first.crankNum : Infinity;
    if (from <= this.releasedEarly) this.mayCountTwice += this.releasedEarly - from + 1;
    return from;
  }

  /** The first crank after a restart: held cranks from before it, numbered from its number on, were abandoned. */
  private settleRestart(first: Crank): void {
    const from = this.ranAgainFrom(first);
    const at = this.restartAt;
    this.restartAt = -1;
    const held = this.held;
    const head = this.head;
    this.held = [];
    this.head = 0;
    this.heldCranks = 0;
    this.heldItems = 0;
    this.heldEntries = 0;
    for (let i = head; i < held.length; i += 1) {
      const h = held[i] as Held;
      if (h.crank && i < at && h.crank.crankNum >= from) {
        this.abandonedCount += 1;
        this.sink.abandoned?.(h.crank);
      } else this.pass(h);
    }
  }

  /** Over a bound, the oldest held go on as committed. */
  private trim(): void {
    let n = 0;
    let cranks = this.heldCranks;
    let items = this.heldItems;
    let entries = this.heldEntries;
    const maxCranks = this.chain ? MAX_HELD_BETWEEN_COMMITS : MAX_HELD_UNCOMMITTED;
    while (this.head + n < this.held.length && (cranks > maxCranks || items > MAX_HELD_ITEMS || entries > MAX_HELD_ENTRIES)) {
      const h = this.held[this.head + n] as Held;
      if (h.crank) {
        cranks -= 1;
        items -= h.crank.items.length;
      } else {
        entries -= 1;
      }
      n += 1;
    }
    if (n > 0) this.releaseEarly(n);
  }

  /**
   * A restart still waits for its first crank and too much came after it
   * (MAX_HELD_ENTRIES): everything held goes on as committed, and the first
   * crank after the restart says how many of them may be counted twice.
   */
  private giveUpRestart(): void {
    this.restartAt = -1;
    this.awaitingAgain = true;
    this.releaseEarly(this.held.length - this.head);
  }

  /** The first crank after a restart with nothing held from before it: as settleRestart counts it, with nothing to abandon. */
  private lateRestart(first: Crank): void {
    this.awaitingAgain = false;
    this.ranAgainFrom(first);
  }

  /** Hands on the first `n` held before their commit (a bound): a restart may yet run some of them again. */
  private releaseEarly(n: number): void {
    const held = this.held;
    for (let i = this.head; i < this.head + n; i += 1) {
      const crank = (held[i] as Held).crank;
      if (crank && crank.crankNum > this.releasedEarly) this.releasedEarly = crank.crankNum;
    }
    this.release(n);
  }

  /** Hands on the first `n` held. */
  private release(n: number): void {
    const held = this.held;
    const stop = this.head + n;
    for (let i = this.head; i < stop; i += 1) {
      const h = held[i] as Held;
      held[i] = EMPTY;
      if (h.crank) {
        this.heldCranks -= 1;
        this.heldItems -= h.crank.items.length;
      } else {
        this.heldEntries -= 1;
      }
      this.pass(h);
    }
    this.head = stop;
    // The released front is dropped once it is most of the array.
    if (this.head > 1024 && this.head * 2 > held.length) {
      this.held = held.slice(this.head);
      if (this.restartAt >= 0) this.restartAt -= this.head;
      this.head = 0;
    }
  }

  private pass(h: Held): void {
    if (h.crank) this.sink.crank(h.crank);
    else this.sink.entry(h.entry as SlogEntry, h.line as number);
  }
}
