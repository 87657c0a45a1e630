/**
 * Groups a stream of slog entries into cranks. Entries outside any crank
 * (startup, kernel-level, chain-level) pass through one by one; a crank is
 * handed over whole when its crank-finish arrives, or at the end of the
 * input when the slog stops inside it (then `finish` is absent).
 *
 * Memory: one crank at a time.
 */
import type { Crank, SyscallPair } from './crank.js';
import type {
  CrankFinishEntry,
  CrankStartEntry,
  DeliverEntry,
  DeliverResultEntry,
  SlogEntry,
  SyscallEntry,
  SyscallResultEntry,
} from '../scan/entry-types.js';
import { vatOf } from '../scan/entry-types.js';

export interface CrankSink {
  /** An entry outside any crank. */
  entry(entry: SlogEntry, line: number): void;
  /** A whole crank (finished, or unfinished at the end of input). */
  crank(crank: Crank): void;
}

export class CrankAssembler {
  private current: Crank | undefined;
  private pending: SyscallPair | undefined;

  constructor(private readonly sink: CrankSink) {}

  /** Is a crank open (started, not finished)? */
  get inCrank(): boolean {
    return this.current !== undefined;
  }

  /** Is a syscall of the open crank waiting for its result? */
  get awaitingResult(): boolean {
    return this.pending !== undefined;
  }

  /** The syscall of the open crank waiting for its result, if any. */
  get pendingSyscall(): SyscallEntry | undefined {
    return this.pending?.call;
  }

  push(entry: SlogEntry, line: number): void {
    const type = entry.type;
    if (type === 'crank-start') {
      if (this.current) this.flushUnfinished();
      this.open(entry as CrankStartEntry, line);
      return;
    }
    const crank = this.current;
    if (!crank) {
      this.sink.entry(entry, line);
      return;
    }
    crank.lastLine = line;
    switch (type) {
      case 'crank-finish':
        this.close(entry as CrankFinishEntry);
        return;
      case 'syscall': {
        if (this.pending) this.settlePending();
        crank.timing.syscallCount += 1;
        this.pending = { kind: 'syscall', call: entry as SyscallEntry, seconds: 0 };
        this.noteVat(entry);
        return;
      }
      case 'syscall-result': {
        const pair = this.pending;
        if (pair) {
          pair.result = entry as SyscallResultEntry;
          pair.seconds = (entry.time ?? NaN) - (pair.call.time ?? NaN);
          if (Number.isFinite(pair.seconds)) crank.timing.syscall += pair.seconds;
          crank.items.push(pair);
          this.pending = undefined;
        } else {
          crank.items.push({ kind: 'entry', entry });
        }
        return;
      }
      case 'deliver':
        crank.deliver ??= entry as DeliverEntry;
        break;
      case 'deliver-result': {
        const dr = entry as DeliverResultEntry;
        crank.deliverResult = dr;
        if (dr.computrons !== undefined) crank.timing.computrons = dr.computrons;
        break;
      }
      default:
        break;
    }
    this.noteVat(entry);
    crank.items.push({ kind: 'entry', entry });
  }

  /** End of input: a crank still open is handed over as unfinished. */
  end(): void {
    if (this.current) this.flushUnfinished();
  }

  private noteVat(entry: SlogEntry): void {
    const crank = this.current;
    if (crank && crank.vatID === undefined && entry.type !== 'create-vat') crank.vatID = vatOf(entry);
  }

  private open(start: CrankStartEntry, line: number): void {
    const vatID = start.vatID ?? start.message?.vatID;
    this.current = {
      crankNum: start.crankNum ?? NaN,
      crankType: start.crankType ?? 'delivery',
      vatID: typeof vatID === 'string' ? vatID : undefined,
      start,
      items: [],
      timing: { total: NaN, syscall: 0, syscallCount: 0 },
      firstLine: line,
      lastLine: line,
    };
  }

  /** A syscall whose result never came (a new syscall started, or the crank ended). */
  private settlePending(): void {
    if (this.pending && this.current) this.current.items.push(this.pending);
    this.pending = undefined;
  }

  private close(finish: CrankFinishEntry): void {
    const crank = this.current as Crank;
    this.settlePending();
    crank.finish = finish;
    crank.timing.total = (finish.time ?? NaN) - (crank.start.time ?? NaN);
    this.current = undefined;
    this.sink.crank(crank);
  }

  private flushUnfinished(): void {
    const crank = this.current as Crank;
    this.settlePending();
    this.current = undefined;
    this.sink.crank(crank);
  }
}
