/**
 * The kinds of c-list entry, by the vat's side of it (SLOG-FORMAT.md,
 * "Cranks": `o+5` exported by the vat, `o-51` imported, `p+5`/`p-60`
 * promises, `d-70` devices): what `growth` counts per vat.
 */

export const CLIST_KINDS = ['importedObjects', 'exportedObjects', 'promises', 'devices'] as const;
export type ClistKind = (typeof CLIST_KINDS)[number];

/** The kind of a vref, or undefined for one that is none of them (a damaged line). */
export function clistKind(vref: string): ClistKind | undefined {
  switch (vref.charAt(0)) {
    case 'o':
      return vref.charAt(1) === '+' ? 'exportedObjects' : vref.charAt(1) === '-' ? 'importedObjects' : undefined;
    case 'p':
      return 'promises';
    case 'd':
      return 'devices';
    default:
      return undefined;
  }
}

/** Counts per kind, all 0. */
export function zeroCounts(): Record<ClistKind, number> {
  return { importedObjects: 0, exportedObjects: 0, promises: 0, devices: 0 };
}

/**
 * A virtual object's kind in its vref: `o+d13/5` (durable kind 13, instance
 * 5) and `o+v12/3:1` (a facet) -> `o+d13/N`, `o+v12/N`; undefined for a
 * plain export (`o+5`).
 */
export function virtualKind(vref: string): string | undefined {
  const m = /^o\+([dv]\d+)\//.exec(vref);
  return m ? `o+${m[1]}/N` : undefined;
}
