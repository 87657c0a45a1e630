/**
 * `runs` (SQLite `run`): one row per run of a chain block, as `slogulate
 * runs --json` gives it (docs/chain.md), with what triggered it.
 */
import type { RunRow } from '../../analyses/chain/runs.js';
import type { TableDef } from '../schema.js';
import { chainRows } from './chain-rows.js';

export interface RunTableRow {
  height: number | null;
  blockTime: number | null;
  again: boolean;
  run: number | null;
  phase: string;
  trigger: string;
  triggerSource: string | null;
  triggerMessageType: string | null;
  triggerSender: string | null;
  cranks: number;
  deliveries: number;
  computrons: number;
  usedBeans: number | null;
  seconds: number | null;
  finished: boolean;
  firstCrank: number | null;
  lastCrank: number | null;
}

const finite = (n: number): number | null => (Number.isFinite(n) ? n : null);

function tableRow(row: RunRow): RunTableRow {
  return {
    height: row.height,
    blockTime: row.blockTime,
    again: row.again,
    run: finite(row.run),
    phase: row.phase,
    trigger: row.trigger.kind,
    triggerSource: row.trigger.source ?? null,
    triggerMessageType: row.trigger.messageType ?? null,
    triggerSender: row.trigger.sender ?? null,
    cranks: row.cranks,
    deliveries: row.deliveries,
    computrons: row.computrons,
    usedBeans: row.usedBeans,
    seconds: row.seconds,
    finished: row.finished,
    firstCrank: row.firstCrank,
    lastCrank: row.lastCrank,
  };
}

export const runs: TableDef<RunTableRow> = {
  name: 'runs',
  sqliteName: 'run',
  doc: 'one row per run of a chain block (none for a slog without blocks), as `runs --json` gives it',
  columns: [
    { name: 'height', type: 'BIGINT', nullable: true, doc: 'its block\'s height', mezzanine: 'run.blockHeight' },
    { name: 'blockTime', type: 'DOUBLE', nullable: true, doc: 'its block\'s consensus time, seconds since the epoch' },
    { name: 'again', type: 'BOOLEAN', nullable: false, doc: 'its block ran again after a restart' },
    { name: 'run', type: 'BIGINT', nullable: true, doc: 'runNum: from 0 in each block', mezzanine: 'run.runNum' },
    { name: 'phase', type: 'VARCHAR', nullable: false, doc: '`leftover`, `timer`, `inbound`, `cleanup`, `bootstrap`, ...' },
    { name: 'trigger', type: 'VARCHAR', nullable: false, doc: 'what started it: `bridge`, `mailbox`, `install-bundle`, `timer`, or the phase\'s own work (`leftover`, `cleanup`, `bootstrap`, `upgrade`, `unknown`)', mezzanine: 'run.action_type' },
    { name: 'triggerSource', type: 'VARCHAR', nullable: true, doc: 'a bridge message\'s source (`wallet`, `provision`, ...)' },
    { name: 'triggerMessageType', type: 'VARCHAR', nullable: true, doc: 'a bridge message\'s type (`WALLET_SPEND_ACTION`, ...)' },
    { name: 'triggerSender', type: 'VARCHAR', nullable: true, doc: 'a mailbox delivery\'s sender' },
    { name: 'cranks', type: 'BIGINT', nullable: false, doc: 'its cranks' },
    { name: 'deliveries', type: 'BIGINT', nullable: false, doc: 'its live deliveries' },
    { name: 'computrons', type: 'BIGINT', nullable: false, doc: 'the sum of its live deliveries\' computrons', mezzanine: 'run.computrons' },
    { name: 'usedBeans', type: 'BIGINT', nullable: true, doc: 'run-finish.usedBeans' },
    { name: 'seconds', type: 'DOUBLE', nullable: true, doc: 'run-start to run-finish, seconds', mezzanine: 'run.time' },
    { name: 'finished', type: 'BOOLEAN', nullable: false, doc: 'its run-finish is in the slog' },
    { name: 'firstCrank', type: 'BIGINT', nullable: true, doc: 'its first crank\'s number' },
    { name: 'lastCrank', type: 'BIGINT', nullable: true, doc: 'its last crank\'s number' },
  ],
  sqliteIndexes: [['height', 'run']],
  rows(ctx, emit) {
    const feed = chainRows(ctx, { run: (row) => emit(tableRow(row)) });
    return {
      ...(feed.entry ? { entry: feed.entry } : {}),
      ...(feed.crank ? { crank: (crank) => feed.crank?.(crank) } : {}),
      end: feed.end,
    };
  },
};
