/**
 * `vats` (SQLite `vat`): one row per vat the slog names (created, or seen
 * running), written at the end of the slog, in vat order (v1, v2, ..., v10).
 */
import { compareVatIDs } from '../../analyses/stats/aggregate.js';
import type { CreateVatEntry, SlogEntry } from '../../scan/entry-types.js';
import type { TableDef } from '../schema.js';

export interface VatRow {
  vatID: string;
  vatName: string | null;
  managerType: string | null;
  dynamic: boolean | null;
  createdInCrank: number | null;
}

/** At most this many vats are kept (a bound for a slog of endless vat IDs). */
const MAX_VATS = 1_000_000;

export const vats: TableDef<VatRow> = {
  name: 'vats',
  sqliteName: 'vat',
  doc: 'one row per vat: its name and worker, and the crank that created it',
  columns: [
    { name: 'vatID', type: 'VARCHAR', nullable: false, doc: 'the vat ID (`v1`, ...)' },
    { name: 'vatName', type: 'VARCHAR', nullable: true, doc: 'its name (create-vat.name, or the create-vat message\'s dynamicOptions.name)' },
    { name: 'managerType', type: 'VARCHAR', nullable: true, doc: 'its worker: `local`, `xsnap`, `xs-worker`, ... (create-vat.managerType)' },
    { name: 'dynamic', type: 'BOOLEAN', nullable: true, doc: 'create-vat.dynamic: created by a vat at run time, not at startup' },
    { name: 'createdInCrank', type: 'BIGINT', nullable: true, doc: 'the crank whose create-vat made it; null for a vat created outside cranks (at startup) or not in the slog' },
  ],
  rows(ctx, emit) {
    const seen = new Map<string, VatRow>();
    const note = (vatID: unknown): VatRow | undefined => {
      if (typeof vatID !== 'string') return undefined;
      let row = seen.get(vatID);
      if (!row && seen.size < MAX_VATS) {
        row = { vatID, vatName: null, managerType: null, dynamic: null, createdInCrank: null };
        seen.set(vatID, row);
      }
      return row;
    };
    const created = (entry: SlogEntry, crankNum: number | null): void => {
      const e = entry as CreateVatEntry;
      const row = note(e.vatID);
      // A bare create-vat (a restarted process) says only the vat ID: the first full one wins.
      if (!row || row.managerType !== null) return;
      if (typeof e.managerType === 'string') row.managerType = e.managerType;
      if (typeof e.dynamic === 'boolean') row.dynamic = e.dynamic;
      if (row.createdInCrank === null) row.createdInCrank = crankNum;
    };
    return {
      entry(entry) {
        if (entry.type === 'create-vat') created(entry, null);
      },
      crank(crank) {
        note(crank.vatID);
        for (const item of crank.items) {
          if (item.kind === 'entry' && item.entry.type === 'create-vat') created(item.entry, crank.crankNum);
        }
      },
      end() {
        for (const row of [...seen.values()].sort((a, b) => compareVatIDs(a.vatID, b.vatID))) {
          row.vatName = ctx.vats.lookup(row.vatID) ?? null;
          emit(row);
        }
      },
    };
  },
};
