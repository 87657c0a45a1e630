/**
 * `blocks` (SQLite `block`): one row per execution of a chain block, as
 * `slogulate blocks --json` gives it (docs/chain.md): a block a restart
 * abandoned has its own row, then the row of its run again.
 */
import { isoSeconds } from '../../analyses/chain/chain-table.js';
import type { BlockRow } from '../../analyses/chain/blocks.js';
import type { TableDef } from '../schema.js';
import { chainRows } from './chain-rows.js';

export interface BlockTableRow {
  height: number | null;
  blockTime: number | null;
  time: string | null;
  interBlockSeconds: number | null;
  blockLagSeconds: number | null;
  runs: number;
  runsByPhase: string;
  cranks: number;
  deliveries: number;
  computrons: number;
  usedBeans: number | null;
  seconds: number | null;
  commitSeconds: number | null;
  heapUsed: number | null;
  inbound: string;
  again: boolean;
  committed: boolean;
  abandoned: boolean;
  finished: boolean;
  bootstrap: boolean;
  upgrade: boolean;
  firstCrank: number | null;
  lastCrank: number | null;
}

function tableRow(row: BlockRow): BlockTableRow {
  return {
    height: row.height !== null && Number.isFinite(row.height) ? row.height : null,
    blockTime: row.blockTime,
    time: row.blockTime === null ? null : isoSeconds(row.blockTime),
    interBlockSeconds: row.interBlockSeconds,
    blockLagSeconds: row.blockLagSeconds,
    runs: Object.values(row.runs).reduce((a, b) => a + b, 0),
    runsByPhase: JSON.stringify(row.runs),
    cranks: row.cranks,
    deliveries: row.deliveries,
    computrons: row.computrons,
    usedBeans: row.usedBeans,
    seconds: row.seconds,
    commitSeconds: row.commitSeconds,
    heapUsed: row.heapUsed,
    inbound: JSON.stringify(row.inbound),
    again: row.again,
    committed: row.committed,
    abandoned: row.abandoned,
    finished: row.finished,
    bootstrap: row.bootstrap,
    upgrade: row.upgrade,
    firstCrank: row.firstCrank,
    lastCrank: row.lastCrank,
  };
}

export const blocks: TableDef<BlockTableRow> = {
  name: 'blocks',
  sqliteName: 'block',
  doc: 'one row per execution of a chain block (none for a slog without blocks), as `blocks --json` gives it',
  columns: [
    { name: 'height', type: 'BIGINT', nullable: true, doc: 'the block height (null: a bootstrap block whose height the slog does not say)', mezzanine: 'block.blockHeight' },
    { name: 'blockTime', type: 'DOUBLE', nullable: true, doc: 'the block\'s consensus time, seconds since the epoch', mezzanine: 'block.blockTime' },
    { name: 'time', type: 'VARCHAR', nullable: true, doc: 'blockTime as UTC ISO text' },
    { name: 'interBlockSeconds', type: 'DOUBLE', nullable: true, doc: 'begin-block\'s interBlockSeconds, where the node writes it' },
    { name: 'blockLagSeconds', type: 'DOUBLE', nullable: true, doc: 'begin-block\'s blockLagSeconds, where the node writes it' },
    { name: 'runs', type: 'BIGINT', nullable: false, doc: 'its runs (all phases)' },
    { name: 'runsByPhase', type: 'VARCHAR', nullable: false, doc: 'its runs by phase, a JSON object (`{"leftover":1,"timer":1,"inbound":2}`)' },
    { name: 'cranks', type: 'BIGINT', nullable: false, doc: 'its cranks' },
    { name: 'deliveries', type: 'BIGINT', nullable: false, doc: 'its live deliveries (not transcript replays)' },
    { name: 'computrons', type: 'BIGINT', nullable: false, doc: 'the sum of its live deliveries\' computrons', mezzanine: 'block.compute_time (as computrons)' },
    { name: 'usedBeans', type: 'BIGINT', nullable: true, doc: 'the sum of its run-finishes\' usedBeans' },
    { name: 'seconds', type: 'DOUBLE', nullable: true, doc: 'end-block-start to -finish (bootstrap: bootstrap-block-start to -finish), seconds: the time SwingSet worked on it', mezzanine: 'block.swingset_time' },
    { name: 'commitSeconds', type: 'DOUBLE', nullable: true, doc: 'commit-block-start to -finish, seconds' },
    { name: 'heapUsed', type: 'BIGINT', nullable: true, doc: 'the kernel\'s heap after the commit (after-commit-stats), bytes' },
    { name: 'inbound', type: 'VARCHAR', nullable: false, doc: 'what came in (bridge messages, mailbox deliveries, bundle installs, the timer), a JSON list as `blocks --json` has it' },
    { name: 'again', type: 'BOOLEAN', nullable: false, doc: 'the block ran again after a restart' },
    { name: 'committed', type: 'BOOLEAN', nullable: false, doc: 'its commit-block-finish is in the slog' },
    { name: 'abandoned', type: 'BOOLEAN', nullable: false, doc: 'a restart came before its commit: this execution was not committed (the block runs again)' },
    { name: 'finished', type: 'BOOLEAN', nullable: false, doc: 'its end-block-finish (bootstrap: -finish) is in the slog' },
    { name: 'bootstrap', type: 'BOOLEAN', nullable: false, doc: 'the bootstrap block (the chain\'s first)' },
    { name: 'upgrade', type: 'BOOLEAN', nullable: false, doc: 'the block began with a chain upgrade' },
    { name: 'firstCrank', type: 'BIGINT', nullable: true, doc: 'its first crank\'s number' },
    { name: 'lastCrank', type: 'BIGINT', nullable: true, doc: 'its last crank\'s number' },
  ],
  sqliteIndexes: [['height']],
  rows(ctx, emit) {
    const feed = chainRows(ctx, { block: (row) => emit(tableRow(row)) });
    return {
      ...(feed.entry ? { entry: feed.entry } : {}),
      ...(feed.crank ? { crank: (crank) => feed.crank?.(crank) } : {}),
      end: feed.end,
    };
  },
};
