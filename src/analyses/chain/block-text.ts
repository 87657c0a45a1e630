/**
 * The forms of a block's row (blocks.ts): its JSON line (version
 * BLOCKS_JSON_VERSION, docs/chain.md) and the text table's columns, with the
 * runs, inbound actions and notes in words.
 */
import { BLOCKS_JSON_VERSION, type BlockRow, type InboundAction } from './blocks.js';
import { isoSeconds, seconds3, type CellColumn } from './chain-table.js';
import { partColumns, partsJson } from './part-figures.js';

/** The run phases in the order a block runs them, and their one-letter names in the text. */
export const PHASES: ReadonlyArray<[string, string]> = [
  ['leftover', 'L'],
  ['forced', 'F'],
  ['priority', 'P'],
  ['timer', 'T'],
  ['inbound', 'I'],
  ['cleanup', 'C'],
  // Older nodes' run-starts do not say their phase.
  ['unknown', '?'],
];

/** A block's JSON line (version BLOCKS_JSON_VERSION); a group's has `group` and a null height. */
export function blockJson(row: BlockRow): Record<string, unknown> {
  return {
    version: BLOCKS_JSON_VERSION,
    height: row.height,
    ...(row.group === undefined ? {} : { group: row.group }),
    time: row.blockTime === null ? null : isoSeconds(row.blockTime),
    blockTime: row.blockTime,
    interBlockSeconds: row.interBlockSeconds,
    blockLagSeconds: row.blockLagSeconds,
    runs: row.runs,
    cranks: row.cranks,
    deliveries: row.deliveries,
    computrons: row.computrons,
    usedBeans: row.usedBeans,
    seconds: row.seconds,
    commitSeconds: row.commitSeconds,
    heapUsed: row.heapUsed,
    inbound: row.inbound,
    again: row.again,
    committed: row.committed,
    abandoned: row.abandoned,
    finished: row.finished,
    bootstrap: row.bootstrap,
    upgrade: row.upgrade,
    firstCrank: row.firstCrank,
    lastCrank: row.lastCrank,
    cosmosSeconds: row.cosmosSeconds,
    intervalSeconds: row.intervalSeconds,
    processingShare: row.processingShare,
    ...partsJson(row.parts),
    ...(row.averages === undefined ? {} : { averages: row.averages }),
  };
}

/** Runs by phase in a few letters: `L T I3 C` (leftover, timer, 3 inbound, cleanup); other phases by name. */
export function runsText(runs: Record<string, number>): string {
  const known = new Map(PHASES);
  const order = [...PHASES.map(([p]) => p).filter((p) => runs[p] !== undefined), ...Object.keys(runs).filter((p) => !known.has(p))];
  return order.map((p) => `${known.get(p) ?? p}${(runs[p] as number) > 1 ? runs[p] : ''}`).join(' ');
}

/** The inbound actions in words: `bridge wallet WALLET_SPEND_ACTION ×2, mailbox agoric1relayer (3 msgs), timer`. */
export function inboundText(actions: readonly InboundAction[]): string {
  return actions
    .map((a) => {
      const times = a.count > 1 ? ` ×${a.count}` : '';
      switch (a.kind) {
        case 'bridge':
          return `${['bridge', a.source, a.messageType].filter((x) => x !== undefined).join(' ')}${times}`;
        case 'mailbox':
          return `mailbox${a.sender === undefined ? '' : ` ${a.sender}`}${times} (${a.messages ?? 0} msg${a.messages === 1 ? '' : 's'})`;
        case 'install-bundle':
          return `install-bundle${times}${a.errors ? ` (${a.errors} failed)` : ''}`;
        default:
          return `${a.kind}${times}`;
      }
    })
    .join(', ');
}

/** What a block's note says: `bootstrap`, `upgrade`, `again` (run again after a restart), `not committed` (a restart came first), `unfinished`. */
export function blockNote(row: BlockRow): string {
  const notes: string[] = [];
  if (row.bootstrap) notes.push('bootstrap');
  if (row.upgrade) notes.push('upgrade');
  if (row.again) notes.push('again');
  if (row.abandoned) notes.push('not committed (restart)');
  else if (!row.finished) notes.push('unfinished');
  return notes.join(', ');
}

const MIB = 1024 * 1024;
const opt = (v: number | null, f: (v: number) => string = String): string => (v === null ? '' : f(v));

/** The blocks table's columns (the inbound actions last: their width varies). */
export const BLOCK_COLUMNS: ReadonlyArray<CellColumn<BlockRow>> = [
  { header: 'height', align: 'right', width: 8, cell: (r) => opt(r.height) },
  { header: 'time (UTC)', align: 'left', width: 20, cell: (r) => opt(r.blockTime, isoSeconds) },
  { header: 'since', align: 'right', width: 6, cell: (r) => opt(r.interBlockSeconds, seconds3) },
  { header: 'lag', align: 'right', width: 6, cell: (r) => opt(r.blockLagSeconds, seconds3) },
  { header: 'runs', align: 'left', width: 8, cell: (r) => runsText(r.runs) },
  { header: 'cranks', align: 'right', width: 6, cell: (r) => String(r.cranks) },
  { header: 'deliveries', align: 'right', width: 10, cell: (r) => String(r.deliveries) },
  { header: 'computrons', align: 'right', width: 11, cell: (r) => String(r.computrons) },
  { header: 'beans', align: 'right', width: 12, cell: (r) => opt(r.usedBeans) },
  { header: 'end-block', align: 'right', width: 9, cell: (r) => opt(r.seconds, seconds3) },
  { header: 'commit', align: 'right', width: 6, cell: (r) => opt(r.commitSeconds, seconds3) },
  { header: 'heap MiB', align: 'right', width: 8, cell: (r) => opt(r.heapUsed, (b) => (b / MIB).toFixed(1)) },
  { header: 'note', align: 'left', width: 4, cell: blockNote },
  { header: 'inbound', align: 'left', width: 0, cell: (r) => inboundText(r.inbound) },
];

/** A share as a percentage with one decimal: `64.3%`. */
const percent = (share: number): string => `${(share * 100).toFixed(1)}%`;

/** The trailing averages' columns (`--average N`): cranks, end-block, cosmos seconds, processing share. */
const AVERAGE_COLUMNS: ReadonlyArray<CellColumn<BlockRow>> = [
  { header: 'avg cranks', align: 'right', width: 10, cell: (r) => opt(r.averages?.cranks ?? null, (v) => v.toFixed(1)) },
  { header: 'avg end-block', align: 'right', width: 13, cell: (r) => opt(r.averages?.seconds ?? null, seconds3) },
  { header: 'avg cosmos', align: 'right', width: 10, cell: (r) => opt(r.averages?.cosmosSeconds ?? null, seconds3) },
  { header: 'avg proc%', align: 'right', width: 9, cell: (r) => opt(r.averages?.processingShare ?? null, percent) },
];

/**
 * The blocks' `--split` table: where each block's time went. Its times
 * (end-block, cosmos, commit, the interval from the block before and the
 * share of it spent processing), with `averages` the trailing averages,
 * then its cranks' time by part (part-figures.ts), the note last.
 */
export function blockSplitColumns(averages: boolean): ReadonlyArray<CellColumn<BlockRow>> {
  return [
    { header: 'height', align: 'right', width: 8, cell: (r) => opt(r.height) },
    { header: 'time (UTC)', align: 'left', width: 20, cell: (r) => opt(r.blockTime, isoSeconds) },
    { header: 'runs', align: 'left', width: 8, cell: (r) => runsText(r.runs) },
    { header: 'cranks', align: 'right', width: 6, cell: (r) => String(r.cranks) },
    { header: 'end-block', align: 'right', width: 9, cell: (r) => opt(r.seconds, seconds3) },
    { header: 'cosmos', align: 'right', width: 6, cell: (r) => opt(r.cosmosSeconds, seconds3) },
    { header: 'commit', align: 'right', width: 6, cell: (r) => opt(r.commitSeconds, seconds3) },
    { header: 'interval', align: 'right', width: 8, cell: (r) => opt(r.intervalSeconds, seconds3) },
    { header: 'proc%', align: 'right', width: 6, cell: (r) => opt(r.processingShare, percent) },
    ...(averages ? AVERAGE_COLUMNS : []),
    ...partColumns<BlockRow>((r) => r.parts),
    { header: 'note', align: 'left', width: 0, cell: blockNote },
  ];
}
