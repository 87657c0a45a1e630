/**
 * `growth --alive VAT`: the vat's c-list entries alive at the end of the
 * slog, each with where it came in (its crank, what carried it: the
 * delivery or syscall the kernel logged after the change) and its name (the
 * annotation file's, else the automatic one, analyses/flow/auto-names.ts);
 * grouped by how they came in (what carried them and the shape of their
 * name, its send counts left out: `deliver makeVault  makeVault/r`, with
 * how many per period), and virtual-object exports by kind (`o+d13/N`).
 */
import type { Annotations } from '../../model/annotations.js';
import { compareKrefIds, krefId } from '../../model/kref-ids.js';
import { tableMarkdown, tableText, type Table } from '../common/table.js';
import type { AutoNames } from '../flow/auto-names.js';
import { CLIST_KINDS, virtualKind, type ClistKind } from './clist-kinds.js';
import type { GrowthCollector } from './growth.js';
import type { GrowthFormat } from './growth-text.js';

export interface AliveRow {
  kref: string;
  vref: string;
  kind: ClistKind;
  /** Null: outside a crank, or made before the slog. */
  crank: number | null;
  via: string;
  name: string | null;
}

export interface AliveGroup {
  via: string;
  /** The name with its send counts left out (`makeVault-3/r` -> `makeVault/r`); null: unnamed. */
  shape: string | null;
  count: number;
  /** count / periods (null: no periods). */
  perPeriod: number | null;
}

export interface AliveListing {
  vatID: string;
  name: string | null;
  /** What the periods are, and how many. */
  unit: string | null;
  periods: number;
  counts: Record<ClistKind, number> & { total: number };
  groups: AliveGroup[];
  virtualKinds: Array<{ kind: string; count: number }>;
  entries: AliveRow[];
}

/** `makeVault-3/r` -> `makeVault/r`; `foo-12/argp` -> `foo/argp`. */
export function nameShape(name: string): string {
  return name.replace(/-\d+(?=\/|$| #)/g, '').replace(/ #\d+$/, '');
}

function byCountThenKey<T extends { count: number }>(key: (t: T) => string): (a: T, b: T) => number {
  return (a, b) => b.count - a.count || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
}

/** The vat's alive entries, by crank, with their groups. */
export function aliveListing(growth: GrowthCollector, vatID: string, names: AutoNames, annotations: Annotations): AliveListing {
  const vat = growth.clists.vat(vatID);
  const vatRefs = annotations.vatRefs.get(vatID);
  const entries: AliveRow[] = [];
  for (const [kref, e] of vat.entries) {
    const id = krefId(kref);
    const name = annotations.kernelRefs.get(kref) ?? vatRefs?.get(e.vref) ?? (id >= 0 ? names.name(id) : undefined) ?? null;
    entries.push({ kref, vref: e.vref, kind: e.kind, crank: Number.isFinite(e.crank) ? e.crank : null, via: e.via, name });
  }
  entries.sort((a, b) => (a.crank ?? -1) - (b.crank ?? -1) || compareKrefIds(krefId(a.kref), krefId(b.kref)));
  const log = growth.log;
  const periods = log?.count ?? 0;
  const groups = new Map<string, AliveGroup>();
  const kinds = new Map<string, number>();
  for (const e of entries) {
    const shape = e.name === null ? null : nameShape(e.name);
    const key = `${e.via}\u0000${shape ?? ''}`;
    const group = groups.get(key) ?? { via: e.via, shape, count: 0, perPeriod: null };
    group.count += 1;
    groups.set(key, group);
    const kind = e.kind === 'exportedObjects' ? virtualKind(e.vref) : undefined;
    if (kind) kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  for (const g of groups.values()) g.perPeriod = periods > 0 ? g.count / periods : null;
  const counts = { ...vat.counts, total: vat.size };
  return {
    vatID,
    name: growth.vats.lookup(vatID) ?? null,
    unit: log?.unit ?? null,
    periods,
    counts,
    groups: [...groups.values()].sort(byCountThenKey((g) => `${g.via} ${g.shape ?? ''}`)),
    virtualKinds: [...kinds].map(([kind, count]) => ({ kind, count })).sort(byCountThenKey((k) => k.kind)),
    entries,
  };
}

/** The listing as text or markdown, ending with a newline. */
export function aliveText(listing: AliveListing, slog: string, format: GrowthFormat = 'text'): string {
  const render = (t: Table): string => (format === 'markdown' ? tableMarkdown(t) : tableText(t));
  const who = listing.name ? `${listing.vatID} ${listing.name}` : listing.vatID;
  const kinds = CLIST_KINDS.map((k) => `${listing.counts[k]} ${k}`).join(', ');
  const heading = `${who}: ${listing.counts.total} c-list entries alive at the end of ${slog} (${kinds})`;
  const out = [format === 'markdown' ? `## ${heading}` : heading];
  const per = listing.unit === 'cranks' ? 'group of cranks' : listing.unit;
  out.push(
    render({
      title: 'By how they came in (what carried them; their name, send counts left out)',
      columns: [
        { header: 'came in by', align: 'left' },
        { header: 'name', align: 'left' },
        { header: 'alive', align: 'right' },
        ...(per ? [{ header: `per ${per}`, align: 'right' as const }] : []),
      ],
      rows: listing.groups.map((g) => [g.via, g.shape ?? '', String(g.count), ...(per ? [g.perPeriod === null ? '' : (Math.round(g.perPeriod * 100) / 100).toFixed(2)] : [])]),
    }),
  );
  if (listing.virtualKinds.length) {
    out.push(
      render({
        title: 'Virtual-object exports by kind',
        columns: [
          { header: 'kind', align: 'left' },
          { header: 'alive', align: 'right' },
        ],
        rows: listing.virtualKinds.map((k) => [k.kind, String(k.count)]),
      }),
    );
  }
  out.push(
    render({
      title: 'Entries',
      columns: [
        { header: 'kref', align: 'left' },
        { header: 'vref', align: 'left' },
        { header: 'crank', align: 'right' },
        { header: 'came in by', align: 'left' },
        { header: 'name', align: 'left' },
      ],
      rows: listing.entries.map((e) => [e.kref, e.vref, e.crank === null ? '' : String(e.crank), e.via, e.name ?? '']),
    }),
  );
  return `${out.join('\n\n')}\n`;
}
