/**
 * The rows of every table in one streaming pass: a CrankSink that pairs each
 * crank's deliveries with their results and syscalls once, and hands them to
 * each table's hooks (schema.ts, TableRows). Memory: one crank at a time (the
 * assembler's), plus what a table keeps back for its end (vats: one per vat).
 *
 * Deliveries and syscalls outside any crank (a vat replayed while the kernel
 * starts, or a slog that begins inside a crank) are paired here too, with
 * the crank number the entry carries (null for a replay), so that nothing
 * the slog holds is lost. `stats` counts only those inside cranks.
 *
 * A selection (`--cranks`, `--blocks`, `--since`, `--until`, `--vat`) keeps
 * the rows of the selected cranks in the tables of cranks (schema.ts's
 * `ofCranks`: cranks, deliveries, syscalls), and none outside cranks; every
 * crank is still paired and numbered (a delivery's `deliveryId` is its
 * place in the whole slog), so that a kept row is the whole export's row.
 * The other tables are the slog's, whole.
 */
import type { ExecutionSink } from '../model/executions.js';
import type { EntryObserver, ModelPlace } from '../model/assembler.js';
import type { Crank, DeliveryTimes, SyscallPair } from '../model/crank.js';
import { STALL_SECONDS } from '../model/stalls.js';
import type { DeliverEntry, DeliverResultEntry, SlogEntry, SyscallEntry, SyscallResultEntry } from '../scan/entry-types.js';
import { VatNames } from '../model/vats.js';
import { CrankSelection, isSelecting, type SelectionSpec } from '../analyses/common/selection.js';
import type { AnyTableDef, DeliveryFacts, ExportContext, SyscallFacts, TableRows } from './schema.js';

/** Where each table's rows go. */
export type RowSink = (table: AnyTableDef) => (row: object) => void;

const intOrNull = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;
const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

export class RowExtractor implements ExecutionSink {
  readonly ctx: ExportContext;
  private readonly tables: TableRows[];
  /** The tables of cranks (`ofCranks`), whose crank rows a selection filters. */
  private readonly ofCranks: ReadonlySet<TableRows>;
  /** The tables with each hook (called for every row: no test per table): of cranks, and the others. */
  private readonly onDelivery: Array<(d: DeliveryFacts) => void>;
  private readonly onSyscall: Array<(s: SyscallFacts) => void>;
  private readonly onDeliveryAlways: Array<(d: DeliveryFacts) => void>;
  private readonly onSyscallAlways: Array<(s: SyscallFacts) => void>;
  /** Which cranks' rows the tables of cranks get (undefined: every crank's, and those outside cranks). */
  private readonly selection: CrankSelection | undefined;
  /** Are the rows being made those of a kept crank (or, without a selection, any)? */
  private kept = true;
  private nextDeliveryId = 1;
  /** A delivery outside cranks, waiting for its deliver-result. */
  private outsideDelivery: DeliveryFacts | undefined;
  /** A syscall outside cranks, waiting for its result. */
  private outsideSyscall: SyscallFacts | undefined;

  /**
   * What the pass's `observe` hook calls with every entry (the tables that
   * see every entry: stalls); undefined when no table does, so that the
   * pass makes no call per line for nothing.
   */
  readonly observe: EntryObserver | undefined;

  /** `stallSeconds`: the stalls table's threshold (default STALL_SECONDS). */
  constructor(options: { source: string; tables: readonly AnyTableDef[]; sink: RowSink; stallSeconds?: number; selection?: SelectionSpec }) {
    this.ctx = { source: options.source, vats: new VatNames(), stallSeconds: options.stallSeconds ?? STALL_SECONDS };
    const made = options.tables.map((def) => ({ def, rows: def.rows(this.ctx, options.sink(def)) }));
    this.tables = made.map((m) => m.rows);
    this.ofCranks = new Set(made.filter((m) => m.def.ofCranks === true).map((m) => m.rows));
    const selection = options.selection;
    this.selection = selection !== undefined && isSelecting(selection) ? new CrankSelection(selection, this.ctx.vats) : undefined;
    this.kept = this.selection === undefined;
    const filtered = this.selection ? this.tables.filter((t) => this.ofCranks.has(t)) : this.tables;
    const always = this.selection ? this.tables.filter((t) => !this.ofCranks.has(t)) : [];
    this.onDelivery = filtered.flatMap((t) => (t.delivery ? [t.delivery.bind(t)] : []));
    this.onSyscall = filtered.flatMap((t) => (t.syscall ? [t.syscall.bind(t)] : []));
    this.onDeliveryAlways = always.flatMap((t) => (t.delivery ? [t.delivery.bind(t)] : []));
    this.onSyscallAlways = always.flatMap((t) => (t.syscall ? [t.syscall.bind(t)] : []));
    const observers = this.tables.flatMap((t) => (t.observe ? [t.observe.bind(t)] : []));
    const [only] = observers;
    this.observe =
      observers.length === 0
        ? undefined
        : observers.length === 1 && only
          ? (entry, _line, place, facts) => only(entry, place, facts)
          : (entry, _line, place, facts) => {
              for (const observe of observers) observe(entry, place, facts);
            };
  }

  entry(entry: SlogEntry, line: number): void {
    this.ctx.vats.observe(entry);
    switch (entry.type) {
      case 'deliver':
        this.closeOutsideSyscall();
        this.closeOutsideDelivery();
        this.outsideDelivery = this.openDelivery(entry as DeliverEntry, undefined, intOrNull(entry.crankNum), stringOrNull(entry.vatID));
        break;
      case 'deliver-result':
        this.closeOutsideSyscall();
        if (this.outsideDelivery) {
          this.outsideDelivery.result = entry as DeliverResultEntry;
          this.closeOutsideDelivery();
        }
        break;
      case 'syscall':
        this.closeOutsideSyscall();
        this.outsideSyscall = {
          pair: { kind: 'syscall', call: entry as SyscallEntry, seconds: 0, replay: entry.replay === true },
          crankNum: intOrNull(entry.crankNum),
          delivery: this.outsideDelivery,
          abandoned: false,
        };
        break;
      case 'syscall-result': {
        const pending = this.outsideSyscall;
        if (pending) {
          pending.pair.result = entry as SyscallResultEntry;
          pending.pair.seconds = (entry.time ?? NaN) - (pending.pair.call.time ?? NaN);
          this.closeOutsideSyscall();
        }
        break;
      }
      default:
        break;
    }
    for (const table of this.tables) table.entry?.(entry, line);
  }

  crank(crank: Crank): void {
    this.execution(crank, false);
  }

  /** A crank a restart ran again: its rows are kept, flagged `abandoned`. */
  abandoned(crank: Crank): void {
    this.execution(crank, true);
  }

  private execution(crank: Crank, abandoned: boolean): void {
    this.closeOutsideSyscall();
    this.closeOutsideDelivery();
    const vats = this.ctx.vats;
    if (crank.start) vats.observe(crank.start);
    if (this.selection) {
      // A vat named in the crank itself is known before the crank is matched, as the analyses' front does (selected-cranks.ts).
      for (const item of crank.items) if (item.kind === 'entry' && item.entry.type === 'create-vat') vats.observe(item.entry);
      this.kept = this.selection.matches(crank);
    }
    const crankNum = crank.crankNum;
    const crankVat = crank.vatID ?? null;
    const deliveries: DeliveryFacts[] = [];
    const times = new LiveDeliveryTimes(crank.deliveryTimes);
    // A crank the slog begins inside may have its deliver-result and not its deliver.
    let current: DeliveryFacts | undefined = this.headlessDelivery(crank, crankNum, crankVat, abandoned);
    for (const item of crank.items) {
      if (item.kind === 'syscall') {
        if (current) this.countSyscall(current, item);
        this.emitSyscall({ pair: item, crankNum, delivery: current, abandoned });
        continue;
      }
      const entry = item.entry;
      switch (entry.type) {
        case 'deliver':
          if (current) this.emitDelivery(current);
          current = this.openDelivery(entry as DeliverEntry, crank, crankNum, stringOrNull(entry.vatID) ?? crankVat, abandoned);
          deliveries.push(current);
          break;
        case 'deliver-result':
          if (current) {
            current.result = entry as DeliverResultEntry;
            current.times = times.of(current);
            this.emitDelivery(current);
            current = undefined;
          }
          break;
        case 'create-vat':
          vats.observe(entry);
          break;
        default:
          break;
      }
    }
    if (current) this.emitDelivery(current);
    for (const table of this.tables) if (this.kept || !this.ofCranks.has(table)) table.crank?.(crank, deliveries, abandoned);
    // Rows outside cranks belong to no selected crank.
    this.kept = this.selection === undefined;
  }

  /** The end of the slog. */
  end(): void {
    this.closeOutsideSyscall();
    this.closeOutsideDelivery();
    for (const table of this.tables) table.end?.();
  }

  /**
   * A delivery whose deliver entry the slog lacks (it begins inside the
   * crank, after the deliver): made when the crank's first deliver or
   * deliver-result is a deliver-result, so that its syscalls and
   * computrons are not lost.
   */
  private headlessDelivery(crank: Crank, crankNum: number, crankVat: string | null, abandoned: boolean): DeliveryFacts | undefined {
    if (crank.opening === 'start') return undefined;
    for (const item of crank.items) {
      if (item.kind !== 'entry') continue;
      const { entry } = item;
      if (entry.type === 'deliver') return undefined;
      if (entry.type === 'deliver-result') return this.openDelivery(undefined, crank, crankNum, stringOrNull(entry.vatID) ?? crankVat, abandoned);
    }
    return undefined;
  }

  private openDelivery(
    deliver: DeliverEntry | undefined,
    crank: Crank | undefined,
    crankNum: number | null,
    vatID: string | null,
    abandoned = false,
  ): DeliveryFacts {
    const id = this.nextDeliveryId;
    this.nextDeliveryId += 1;
    return { id, crankNum, crank, vatID, deliver, abandoned, syscallSeconds: 0, syscallCount: 0, times: undefined };
  }

  private countSyscall(delivery: DeliveryFacts, pair: SyscallPair): void {
    delivery.syscallCount += 1;
    if (pair.result && Number.isFinite(pair.seconds)) delivery.syscallSeconds += pair.seconds;
  }

  private emitDelivery(delivery: DeliveryFacts): void {
    if (this.kept) for (const hook of this.onDelivery) hook(delivery);
    for (const hook of this.onDeliveryAlways) hook(delivery);
  }

  private emitSyscall(syscall: SyscallFacts): void {
    if (this.kept) for (const hook of this.onSyscall) hook(syscall);
    for (const hook of this.onSyscallAlways) hook(syscall);
  }

  private closeOutsideDelivery(): void {
    const delivery = this.outsideDelivery;
    if (!delivery) return;
    this.outsideDelivery = undefined;
    this.emitDelivery(delivery);
  }

  private closeOutsideSyscall(): void {
    const syscall = this.outsideSyscall;
    if (!syscall) return;
    this.outsideSyscall = undefined;
    if (syscall.delivery) this.countSyscall(syscall.delivery, syscall.pair);
    this.emitSyscall(syscall);
  }
}

/**
 * A crank's DeliveryTimes handed to its deliveries in order: the time
 * split makes one for each live deliver that gets its live deliver-result,
 * in slog order, as the extractor pairs them. A delivery takes the next
 * one when it is live and its deliver and result say the same vat and
 * delivery number as the times do; otherwise it has none (and the times
 * wait for the next delivery).
 */
class LiveDeliveryTimes {
  private next = 0;

  constructor(private readonly list: readonly DeliveryTimes[]) {}

  /** The times of `delivery`, which just got its result. */
  of(delivery: DeliveryFacts): DeliveryTimes | undefined {
    const { deliver, result } = delivery;
    if (!deliver || deliver.replay === true || result?.replay === true) return undefined;
    const times = this.list[this.next];
    if (!times) return undefined;
    if (times.deliveryNum !== undefined && deliver.deliveryNum !== undefined && times.deliveryNum !== deliver.deliveryNum) return undefined;
    if (times.vatID !== undefined && deliver.vatID !== undefined && times.vatID !== deliver.vatID) return undefined;
    this.next += 1;
    return times;
  }
}
