/**
 * The chain view for slogs without chain blocks (a swingset-runner
 * benchmark, a standalone kernel): `blocks --every N` makes a row of every N
 * cranks (all kinds, in slog order), `blocks --round-marks` a row per
 * benchmark round (rounds.ts: the cranks from a round's start mark to its
 * end mark). The rows are blocks.ts's, with a `group` name in place of a
 * height: cranks, live deliveries, computrons, and `seconds` from the
 * group's first crank's start to its last crank's end.
 *
 * Streaming: a group is handed over once its last crank went by; memory is
 * the open group (and one record per round, rounds.ts).
 */
import type { CrankSink } from '../../model/assembler.js';
import { crankStartTime, type Crank } from '../../model/crank.js';
import type { SlogEntry } from '../../scan/entry-types.js';
import type { BlockRow } from './blocks.js';
import { isoSeconds, seconds3, type CellColumn } from './chain-table.js';
import { CrankTally } from './crank-tally.js';
import { partColumns, partFigures } from './part-figures.js';
import { PartsTally } from '../common/parts-tally.js';
import { consoleText, type Round, type Rounds } from '../common/rounds.js';

export interface GroupsConfig {
  /** Cranks per group (when not per round). */
  every?: number;
  /** One group per round, marks read from the slog's console entries (throws RoundMarkError on a misplaced mark). */
  rounds?: Rounds;
  /** The slog's name, for round-mark errors. */
  slogName?: string;
  onGroup: (row: BlockRow) => void;
}

/** When a crank ended: its crank-finish, else its last entry's time. */
function crankEndTime(crank: Crank): number | undefined {
  if (typeof crank.finish?.time === 'number') return crank.finish.time;
  for (let i = crank.items.length - 1; i >= 0; i -= 1) {
    const item = crank.items[i];
    const time = item?.kind === 'syscall' ? (item.result?.time ?? item.call.time) : item?.entry.time;
    if (typeof time === 'number') return time;
  }
  return undefined;
}

interface OpenGroup {
  row: BlockRow;
  /** Its cranks, counted as they come; copied into the row when it closes. */
  tally: CrankTally;
  round?: Round;
  start?: number;
  end?: number;
  /** The lowest and highest crank numbers: after a restart the numbers go back (cranks run again). */
  low?: number;
  high?: number;
}

export class CrankGroups implements CrankSink {
  private open: OpenGroup | undefined;
  /** Groups handed over, and cranks in no round. */
  groups = 0;
  leftOut = 0;

  constructor(private readonly config: GroupsConfig) {
    if (!config.rounds && !(Number.isInteger(config.every) && (config.every as number) > 0)) {
      throw new RangeError('cranks per group must be a whole number above 0');
    }
  }

  entry(entry: SlogEntry, line: number): void {
    this.noteMarks(entry, `${this.config.slogName ?? '<slog>'}:${line}`);
  }

  crank(crank: Crank): void {
    const rounds = this.config.rounds;
    let round: Round | undefined;
    if (rounds) {
      // Marks logged inside the crank apply before it is placed (as in RoundFilter).
      for (const item of crank.items) if (item.kind === 'entry') this.noteMarks(item.entry, `${this.config.slogName ?? '<slog>'}: crank ${crank.crankNum}`);
      round = rounds.contains(crank.crankNum);
      rounds.passed(crank.crankNum);
      if (!round) {
        this.close();
        this.leftOut += 1;
        return;
      }
      if (this.open?.round !== round) this.close();
    } else if (this.open && this.open.tally.cranks >= (this.config.every as number)) {
      this.close();
    }
    const group = this.open ?? this.begin(round);
    group.tally.add(crank);
    if (Number.isFinite(crank.crankNum)) {
      group.low = Math.min(group.low ?? crank.crankNum, crank.crankNum);
      group.high = Math.max(group.high ?? crank.crankNum, crank.crankNum);
    }
    // A crank a restart made the kernel run again: the group holds both of its executions.
    if (crank.again) group.row.again = true;
    group.start ??= crankStartTime(crank);
    group.end = crankEndTime(crank) ?? group.end;
  }

  /** End of input: the open group is handed over. */
  end(): void {
    this.close();
  }

  private noteMarks(entry: SlogEntry, where: string): void {
    if (!this.config.rounds) return;
    const text = consoleText(entry);
    if (text !== undefined) this.config.rounds.noteText(text, where);
  }

  private begin(round: Round | undefined): OpenGroup {
    const row: BlockRow = {
      height: null,
      group: '',
      blockTime: null,
      interBlockSeconds: null,
      blockLagSeconds: null,
      runs: {},
      cranks: 0,
      deliveries: 0,
      computrons: 0,
      usedBeans: null,
      seconds: null,
      commitSeconds: null,
      cosmosSeconds: null,
      intervalSeconds: null,
      processingShare: null,
      parts: partFigures(new PartsTally()),
      heapUsed: null,
      inbound: [],
      again: false,
      committed: false,
      abandoned: false,
      finished: true,
      bootstrap: false,
      upgrade: false,
      firstCrank: null,
      lastCrank: null,
    };
    this.open = { row, tally: new CrankTally(), ...(round ? { round } : {}) };
    return this.open;
  }

  private close(): void {
    const group = this.open;
    if (!group) return;
    this.open = undefined;
    const row = group.row;
    const { cranks, deliveries, computrons, firstCrank, lastCrank } = group.tally;
    Object.assign(row, { cranks, deliveries, computrons, firstCrank, lastCrank, parts: partFigures(group.tally.parts) });
    const range = group.low === undefined ? 'no crank numbers' : group.low === group.high ? `crank ${group.low}` : `cranks ${group.low}-${group.high}`;
    row.group = group.round ? `"${group.round.benchmark}" round ${group.round.round}` : range;
    if (group.start !== undefined) row.blockTime = group.start;
    if (group.start !== undefined && group.end !== undefined) row.seconds = group.end - group.start;
    if (group.round && group.round.end === undefined) row.finished = false;
    this.groups += 1;
    this.config.onGroup(row);
  }
}

/** The groups' table: what a slog without blocks has of the blocks' columns. */
export const GROUP_COLUMNS: ReadonlyArray<CellColumn<BlockRow>> = [
  { header: 'group', align: 'left', width: 14, cell: (r) => r.group ?? '' },
  { header: 'time (UTC)', align: 'left', width: 24, cell: (r) => (r.blockTime === null ? '' : isoSeconds(r.blockTime)) },
  { header: 'seconds', align: 'right', width: 8, cell: (r) => (r.seconds === null ? '' : seconds3(r.seconds)) },
  { header: 'cranks', align: 'right', width: 6, cell: (r) => String(r.cranks) },
  { header: 'deliveries', align: 'right', width: 10, cell: (r) => String(r.deliveries) },
  { header: 'computrons', align: 'right', width: 11, cell: (r) => String(r.computrons) },
  { header: 'note', align: 'left', width: 0, cell: (r) => groupNote(r) },
];

/** The groups' `--split` table: its time, cranks, and their time by part (part-figures.ts). */
export const GROUP_SPLIT_COLUMNS: ReadonlyArray<CellColumn<BlockRow>> = [
  { header: 'group', align: 'left', width: 14, cell: (r) => r.group ?? '' },
  { header: 'time (UTC)', align: 'left', width: 24, cell: (r) => (r.blockTime === null ? '' : isoSeconds(r.blockTime)) },
  { header: 'seconds', align: 'right', width: 8, cell: (r) => (r.seconds === null ? '' : seconds3(r.seconds)) },
  { header: 'cranks', align: 'right', width: 6, cell: (r) => String(r.cranks) },
  ...partColumns<BlockRow>((r) => r.parts),
  { header: 'note', align: 'left', width: 0, cell: (r) => groupNote(r) },
];

/** A group's note: `no end mark` (a round the slog ends inside), `cranks run again after a restart` (both executions counted). */
function groupNote(row: BlockRow): string {
  const notes: string[] = [];
  if (!row.finished) notes.push('no end mark');
  if (row.again) notes.push('cranks run again after a restart');
  return notes.join(', ');
}
