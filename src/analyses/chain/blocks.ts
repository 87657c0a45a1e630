/**
 * The chain view (`slogulate blocks`, `slogulate runs`): one row per block
 * and one per run, made in one streaming pass as the slog's chain entries
 * come by (SLOG-FORMAT.md, "Chain entries as agoric-sdk writes them today").
 *
 * A block is what the node did for one height: its `begin-block`, the runs
 * between `end-block-start` and `end-block-finish` (their cranks), its
 * `commit-block-start` .. `-finish`, and the kernel's heap after the commit
 * (`after-commit-stats`). The bootstrap block (`bootstrap-block-start` ..
 * `-finish`) is a block of its own, which does not commit; an upgrade
 * (`upgrade-start` .. `-finish`) is part of the block of its height.
 *
 * Every execution shows as it ran: a node that crashes and restarts runs the
 * block it had not committed again, so that block has two rows: the first
 * `abandoned` (a restart came before its commit), the second `again`.
 *
 * A block's row is handed over when the block ends: at its
 * `after-commit-stats` (a live monitor prints it as the block commits), or,
 * in a slog whose nodes do not write those, at its commit; the bootstrap
 * block at its `-finish`; any block at whatever shows it is over (another
 * block, a restart, the end of the slog). A run's row is handed over at its
 * `run-finish`. Memory: the open block and run only. Its JSON and text
 * forms are in block-text.ts.
 */
import { ChainTracker, type BlockRef } from '../../model/chain.js';
import type { ExecutionSink } from '../../model/executions.js';
import type { Crank } from '../../model/crank.js';
import { isCrankEntry, type SlogEntry } from '../../scan/entry-types.js';
import { READ_NOTHING, type Reads } from '../../scan/reads.js';
import { crankFigures } from '../common/crank-figures.js';
import { RunTally, type RunRow } from './runs.js';

/** The version of the JSON lines `blocks --json` prints (docs/chain.md); changes only with a new number. */
export const BLOCKS_JSON_VERSION = 1;

/**
 * What came into a block from outside: bridge messages (by source and
 * message type), mailbox deliveries (by sender), bundle installs, kernel
 * upgrade events, and the timer when its poll woke something (`added`).
 */
export interface InboundAction {
  kind: 'bridge' | 'mailbox' | 'install-bundle' | 'upgrade-events' | 'timer';
  source?: string;
  messageType?: string;
  sender?: string;
  /** Entries of this kind (and source, type or sender) in the block. */
  count: number;
  /** mailbox: the messages they carried. */
  messages?: number;
  /** install-bundle: installs that failed. */
  errors?: number;
}


export interface BlockRow {
  /** The height; null for a group of cranks (crank-groups.ts). */
  height: number | null;
  /** A group's name (`cranks 0-249`, `"open vault" round 2`); absent for a block. */
  group?: string;
  /** The block's time (the chain's consensus time), seconds since the epoch; a group's first crank's start. */
  blockTime: number | null;
  /** begin-block's interBlockSeconds and blockLagSeconds, where the slog has them. */
  interBlockSeconds: number | null;
  blockLagSeconds: number | null;
  /** Runs by phase (in the order first seen). */
  runs: Record<string, number>;
  cranks: number;
  /** Live deliveries (not transcript replays). */
  deliveries: number;
  /** Sum of the live deliveries' computrons (0 where the workers report none). */
  computrons: number;
  /** Sum of the run-finishes' usedBeans (null: no run-finish said). */
  usedBeans: number | null;
  /**
   * The time SwingSet worked on the block, seconds: end-block-start to
   * end-block-finish (the bootstrap block: bootstrap-block-start to -finish);
   * a group: its first crank's start to its last crank's end. Null when
   * the slog does not show both ends.
   */
  seconds: number | null;
  /** commit-block-start to -finish, seconds. */
  commitSeconds: number | null;
  /** The kernel's heap after the commit (after-commit-stats memoryUsage.heapUsed), bytes. */
  heapUsed: number | null;
  inbound: InboundAction[];
  /** The block ran again after a restart. */
  again: boolean;
  /** Its commit-block-finish was seen. */
  committed: boolean;
  /** A restart came before its commit: this execution was not committed (the block runs again). */
  abandoned: boolean;
  /** Its end-block-finish (bootstrap: -finish) was seen. */
  finished: boolean;
  bootstrap: boolean;
  /** The block began with a chain upgrade (upgrade-start .. -finish). */
  upgrade: boolean;
  firstCrank: number | null;
  lastCrank: number | null;
}

/** What the blocks collector reads of crank entries: nothing beyond the crank model's own reads. */
export const BLOCKS_READS: Reads = READ_NOTHING;

export interface BlocksConfig {
  /** Each block's row, as the block ends. */
  onBlock?: (row: BlockRow) => void;
  /** Each run's row, as the run ends. */
  onRun?: (row: RunRow) => void;
  /** Which cranks count (default all; `compare` counts its selection's). */
  selectCrank?: (crank: Crank) => boolean;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** A -finish entry's duration: its `seconds`, else its time minus the -start's. */
function took(finish: SlogEntry, startTime: number | null): number | null {
  const seconds = num((finish as { seconds?: unknown }).seconds);
  if (seconds !== null) return seconds;
  const end = num(finish.time);
  return end !== null && startTime !== null ? end - startTime : null;
}

class OpenBlock {
  readonly row: BlockRow;
  endStart: number | null = null;
  commitStart: number | null = null;
  bootstrapStart: number | null = null;
  /** The begin-block was seen (an upgrade's block waits for it). */
  begun = false;
  /** Its after-commit-stats was seen. */
  stats = false;
  private readonly actions = new Map<string, InboundAction>();

  constructor(ref: BlockRef) {
    this.row = {
      height: ref.height,
      blockTime: ref.blockTime ?? null,
      interBlockSeconds: null,
      blockLagSeconds: null,
      runs: {},
      cranks: 0,
      deliveries: 0,
      computrons: 0,
      usedBeans: null,
      seconds: null,
      commitSeconds: null,
      heapUsed: null,
      inbound: [],
      again: ref.again,
      committed: false,
      abandoned: false,
      finished: false,
      bootstrap: ref.bootstrap,
      upgrade: ref.upgrade === true,
      firstCrank: null,
      lastCrank: null,
    };
  }

  add(crank: Crank): void {
    const { deliveries, computrons } = crankFigures(crank);
    const row = this.row;
    row.cranks += 1;
    row.deliveries += deliveries;
    row.computrons += computrons;
    if (Number.isFinite(crank.crankNum)) {
      row.firstCrank ??= crank.crankNum;
      row.lastCrank = crank.crankNum;
    }
  }

  inbound(entry: SlogEntry): void {
    let action: Omit<InboundAction, 'count'> | undefined;
    switch (entry.type) {
      case 'cosmic-swingset-bridge-inbound': {
        const body = entry.body as { type?: unknown } | null | undefined;
        const source = str(entry.source);
        const messageType = body !== null && typeof body === 'object' ? str(body.type) : undefined;
        action = { kind: 'bridge', ...(source === undefined ? {} : { source }), ...(messageType === undefined ? {} : { messageType }) };
        break;
      }
      case 'cosmic-swingset-deliver-inbound': {
        const sender = str(entry.sender);
        action = { kind: 'mailbox', ...(sender === undefined ? {} : { sender }) };
        break;
      }
      case 'cosmic-swingset-install-bundle':
        action = { kind: 'install-bundle' };
        break;
      case 'cosmic-swingset-inject-kernel-upgrade-events':
        action = { kind: 'upgrade-events' };
        break;
      case 'cosmic-swingset-timer-poll':
        // Polled every block: an inbound action only when it woke something.
        if (entry.added === true) action = { kind: 'timer' };
        break;
      default:
        break;
    }
    if (!action) return;
    const key = `${action.kind}\u0000${action.source ?? ''}\u0000${action.messageType ?? ''}\u0000${action.sender ?? ''}`;
    let known = this.actions.get(key);
    if (!known) {
      known = { ...action, count: 0 };
      this.actions.set(key, known);
      this.row.inbound.push(known);
    }
    known.count += 1;
    if (entry.type === 'cosmic-swingset-deliver-inbound') known.messages = (known.messages ?? 0) + (num(entry.count) ?? 0);
    if (entry.type === 'cosmic-swingset-install-bundle' && entry.error !== null && entry.error !== undefined) known.errors = (known.errors ?? 0) + 1;
  }
}

export class BlocksCollector implements ExecutionSink {
  /** Blocks and runs read a crank's sums and deliveries, none of its syscalls: the crank model holds none (model/assembler.ts). */
  readonly syscallsUnread = true;
  private readonly tracker = new ChainTracker();
  private open: OpenBlock | undefined;
  private run: RunTally | undefined;
  /** Cranks of the open block while no run is open: a run whose run-start the slog lacks (the contextual form) has them. */
  private loose: RunTally | undefined;
  /** The slog's nodes write after-commit-stats (until a committed block ends without one). */
  private afterCommitStats = true;
  /** Blocks and runs handed over, and cranks that ran in no block. */
  blocks = 0;
  runs = 0;
  cranksOutside = 0;

  constructor(private readonly config: BlocksConfig) {}

  /** Does the slog show chain blocks at all? */
  get chain(): boolean {
    return this.tracker.chain;
  }

  entry(entry: SlogEntry): void {
    // Crank entries come here only from a front that passes cranks on as entries (rounds): not chain entries.
    if (isCrankEntry(entry)) return;
    const type = entry.type;
    if (!type.startsWith('cosmic-swingset-') && type !== 'kernel-init-start') return;
    const open = this.open;
    // What ends the open block, before the tracker moves on.
    switch (type) {
      case 'kernel-init-start':
        this.endRun(undefined);
        this.close(true);
        break;
      case 'cosmic-swingset-begin-block':
        // An upgrade's block goes on with the begin-block of its height.
        if (!(open && open.row.upgrade && !open.begun && open.row.height === num(entry.blockHeight))) this.close(false);
        break;
      case 'cosmic-swingset-bootstrap-block-start':
      case 'cosmic-swingset-upgrade-start':
      case 'cosmic-swingset-init':
        this.close(false);
        break;
      default:
        break;
    }
    this.tracker.entry(entry);
    const block = this.open;
    const time = num(entry.time);
    switch (type) {
      case 'cosmic-swingset-bootstrap-block-start':
      case 'cosmic-swingset-upgrade-start':
        this.begin();
        if (this.open && type === 'cosmic-swingset-bootstrap-block-start') this.open.bootstrapStart = time;
        return;
      case 'cosmic-swingset-begin-block': {
        const b = block && block.row.upgrade && !block.begun ? block : this.begin();
        if (!b) return;
        b.begun = true;
        b.row.blockTime = num(entry.blockTime) ?? b.row.blockTime;
        b.row.interBlockSeconds = num(entry.interBlockSeconds);
        b.row.blockLagSeconds = num(entry.blockLagSeconds);
        return;
      }
      case 'cosmic-swingset-end-block-start':
        if (block) block.endStart = time;
        return;
      case 'cosmic-swingset-end-block-finish':
        this.endRun(undefined);
        if (block) {
          block.row.seconds = took(entry, block.endStart);
          block.row.finished = true;
        }
        return;
      case 'cosmic-swingset-bootstrap-block-finish':
        this.endRun(undefined);
        if (block) {
          block.row.seconds = took(entry, block.bootstrapStart);
          block.row.finished = true;
          // The bootstrap block does not commit.
          this.close(false);
        }
        return;
      case 'cosmic-swingset-upgrade-finish':
        this.endRun(undefined);
        return;
      case 'cosmic-swingset-run-start': {
        this.endRun(undefined);
        const ref = this.tracker.run;
        if (!ref) return;
        if (block) {
          block.row.runs[ref.phase] = (block.row.runs[ref.phase] ?? 0) + 1;
          // A bootstrap block whose height the slog did not say before its first run (model/chain.ts).
          if (Number.isNaN(block.row.height)) block.row.height = this.tracker.block?.height ?? NaN;
        }
        this.loose = undefined;
        this.run = new RunTally(ref, this.tracker.block, time ?? undefined);
        return;
      }
      case 'cosmic-swingset-run-finish': {
        const used = num(entry.usedBeans);
        if (block && used !== null) block.row.usedBeans = (block.row.usedBeans ?? 0) + used;
        if (!this.run && block) {
          // Its run-start is not in the slog (the contextual writer drops the bootstrap's): the run-finish says which run it was.
          const phase = str(entry.phase) ?? 'unknown';
          const trigger = block.row.bootstrap ? { kind: 'bootstrap' } : block.row.upgrade && !block.begun ? { kind: 'upgrade' } : { kind: 'unknown' };
          const ref = { num: num(entry.runNum) ?? NaN, phase, trigger };
          block.row.runs[phase] = (block.row.runs[phase] ?? 0) + 1;
          this.run = this.loose ?? new RunTally(ref, this.tracker.block, undefined);
          this.run.ref = ref;
        }
        this.loose = undefined;
        this.endRun(entry);
        return;
      }
      case 'cosmic-swingset-commit-block-start':
        if (block) block.commitStart = time;
        return;
      case 'cosmic-swingset-commit-block-finish':
        if (block) {
          block.row.commitSeconds = took(entry, block.commitStart);
          block.row.committed = true;
          if (!this.afterCommitStats) this.close(false);
        }
        return;
      case 'cosmic-swingset-after-commit-stats': {
        this.afterCommitStats = true;
        if (!block || !block.row.committed) return;
        block.stats = true;
        const usage = entry.memoryUsage as { heapUsed?: unknown } | undefined;
        const heap = entry.heapStats as { used_heap_size?: unknown } | undefined;
        block.row.heapUsed = num(usage?.heapUsed) ?? num(heap?.used_heap_size);
        this.close(false);
        return;
      }
      default:
        block?.inbound(entry);
    }
  }

  crank(crank: Crank): void {
    if (this.config.selectCrank && !this.config.selectCrank(crank)) return;
    if (!crank.block || !this.open) {
      this.cranksOutside += 1;
      return;
    }
    this.open.add(crank);
    if (this.run) this.run.add(crank);
    else (this.loose ??= new RunTally({ num: NaN, phase: 'unknown', trigger: { kind: 'unknown' } }, this.tracker.block, undefined)).add(crank);
  }

  /** An execution a restart abandoned (a pass that counts each crank once): it ran, in its block. */
  abandoned(crank: Crank): void {
    this.crank(crank);
  }

  /** End of input: the open run and block are handed over as they are. */
  end(): void {
    this.endRun(undefined);
    this.close(false);
  }

  private begin(): OpenBlock | undefined {
    this.loose = undefined;
    const ref = this.tracker.block;
    this.open = ref ? new OpenBlock(ref) : undefined;
    return this.open;
  }

  private endRun(finish: SlogEntry | undefined): void {
    const run = this.run;
    if (!run) return;
    this.run = undefined;
    this.runs += 1;
    this.config.onRun?.(run.row(finish));
  }

  /** Hands the open block over; `restart`: a kernel restart ends it (uncommitted, it was abandoned). */
  private close(restart: boolean): void {
    const block = this.open;
    if (!block) return;
    this.open = undefined;
    this.loose = undefined;
    const row = block.row;
    if (restart && !row.committed && !row.bootstrap) row.abandoned = true;
    if (row.height !== null && Number.isNaN(row.height)) row.height = null;
    // A committed block ended by something else than its after-commit-stats: this slog has none.
    if (row.committed && !restart) this.afterCommitStats = block.stats;
    this.blocks += 1;
    this.config.onBlock?.(row);
  }
}
