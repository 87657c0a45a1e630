/**
 * `clist` (SQLite `clist`): one row per c-list entry (a vat's (kref, vref)
 * pair) as `slogulate growth` rebuilds them (analyses/growth/clist-model.ts):
 * from the crank its import or export came in to the crank it was dropped or
 * its vat's cleanup removed it; an entry alive at the end has no
 * `removedCrank`, and comes at the end of the slog. Executions a restart
 * abandoned are left out: the kernel did not commit them.
 */
import type { AliveEntry } from '../../analyses/growth/clist-model.js';
import { GROWTH_READS } from '../../analyses/growth/growth.js';
import type { ExportContext, TableDef } from '../schema.js';
import { growthFeed } from './growth-feed.js';

export interface ClistRow {
  vatID: string;
  vatName: string | null;
  kref: string;
  vref: string;
  mode: string;
  kind: string;
  addedCrank: number | null;
  removedCrank: number | null;
  removedBy: string | null;
  cameInBy: string;
}

const crankOrNull = (crank: number): number | null => (Number.isFinite(crank) ? crank : null);

function clistRow(ctx: ExportContext, vatID: string, kref: string, e: AliveEntry, removedBy: string | null, removedCrank: number | null): ClistRow {
  return {
    vatID,
    vatName: ctx.vats.lookup(vatID) ?? null,
    kref,
    vref: e.vref,
    mode: e.vref.charAt(1) === '+' ? 'export' : 'import',
    kind: e.kind,
    addedCrank: crankOrNull(e.crank),
    removedCrank,
    removedBy,
    cameInBy: e.via,
  };
}

export const clist: TableDef<ClistRow> = {
  name: 'clist',
  sqliteName: 'clist_entry',
  reads: GROWTH_READS,
  optIn: true,
  doc: "one row per vat c-list entry, from the crank it came in to the crank it left (as `slogulate growth` rebuilds the c-lists from the kernel's `clist` entries; docs/growth.md)",
  columns: [
    { name: 'vatID', type: 'VARCHAR', nullable: false, doc: 'the vat whose c-list holds it' },
    { name: 'vatName', type: 'VARCHAR', nullable: true, doc: "the vat's name, if the slog names it" },
    { name: 'kref', type: 'VARCHAR', nullable: false, doc: 'the kernel side (`ko12`, `kp40`, `kd3`)' },
    { name: 'vref', type: 'VARCHAR', nullable: false, doc: "the vat's side (`o+5`, `o-51`, `p+5`, `d-70`)" },
    { name: 'mode', type: 'VARCHAR', nullable: false, doc: '`export` (the vat made it: a `+` vref) or `import`' },
    { name: 'kind', type: 'VARCHAR', nullable: false, doc: '`importedObjects`, `exportedObjects`, `promises` or `devices`' },
    { name: 'addedCrank', type: 'BIGINT', nullable: true, doc: 'the crank its import or export came in; null outside cranks, or made before the slog (a static vat\'s root: named by the bootstrap message, or proven by a message to it)' },
    { name: 'removedCrank', type: 'BIGINT', nullable: true, doc: 'the crank it was dropped or its vat cleaned up; null while alive at the end (or removed outside cranks: see removedBy)' },
    { name: 'removedBy', type: 'VARCHAR', nullable: true, doc: '`drop` (a clist drop), `cleanup` (its terminated vat\'s vat-cleanup-complete), `replaced` (the kref given another vref), `restart` (the kernel restarted from the slog\'s first crank or earlier: the slog is copies end to end); null while alive' },
    { name: 'cameInBy', type: 'VARCHAR', nullable: false, doc: 'what carried it in: the delivery or syscall the kernel logged after the change (`deliver makeVault`, `send deposit`, `resolve`, `notify`), `before the slog`, `the kernel`' },
  ],
  sqliteIndexes: [['vatID', 'kref']],
  rows(ctx, emit) {
    const feed = growthFeed(ctx);
    feed.removed.push((vatID, kref, e, how, crank) => emit(clistRow(ctx, vatID, kref, e, how, crankOrNull(crank))));
    return {
      entry: (entry, line) => feed.entry(entry, line),
      crank: (crank, _deliveries, abandoned) => feed.crank(crank, abandoned),
      end() {
        feed.end();
        for (const [vatID, vat] of feed.collector.clists.vats) for (const [kref, e] of vat.entries) emit(clistRow(ctx, vatID, kref, e, null, null));
      },
    };
  },
};
