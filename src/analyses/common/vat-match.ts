/**
 * Which vat of the head slog is which vat of the base, for `slogulate
 * compare`. Two runs of the same benchmark may create their vats in another
 * order, so that `v7` is bob in one and erin in the other: a vat is matched
 * by its name where both slogs name it (create-vat names, annotation files)
 * and the name is one vat's on each side; every other vat by its ID, unless
 * both sides name the vat of that ID and the names differ (bob in the base,
 * erin in the head): those are two vats, each on its side with its own name.
 *
 *     const vats = new VatMatching(vatNamesOf(base), vatNamesOf(head));
 *     vats.of('head', 'v8');   // { key: 'bob', name: 'bob', base: 'v7', head: 'v8', by: 'name' }
 *
 * A vat's `key` is its ID when that is the same on both sides (or it is on
 * one side only), its name when its IDs differ. How report rows and
 * `--fail-on` scopes name it is `keyOf`: its key, unless that is an ID the
 * other side gives to another vat (`v6` is alice, only in the head, and bob
 * in the base): then its name, or `v6@head` when it has no name of its own.
 * Every `keyOf` is read back by `scoped` as that vat; an ID that names
 * different vats on the two sides is refused there.
 */
import { compareVatIDs } from '../stats/aggregate.js';

export type Side = 'base' | 'head';
export type VatMatchBy = 'name' | 'id';

export interface VatMatch {
  /** `v7`, or `bob` when its IDs differ (rows and thresholds name it by `VatMatching.keyOf`). */
  key: string;
  /** Its name, if it has one (matched by ID: the name of the side that names it; both sides name it alike). */
  name?: string;
  /** Its ID in the base, in the head; absent on a side without it. */
  base?: string;
  head?: string;
  by: VatMatchBy;
}

/** vat ID -> name (undefined: no name) of one side. */
export type SideVats = ReadonlyMap<string, string | undefined>;

/** Names that belong to exactly one vat of a side. */
function uniqueNames(vats: SideVats): Map<string, string> {
  const count = new Map<string, number>();
  for (const name of vats.values()) if (name !== undefined) count.set(name, (count.get(name) ?? 0) + 1);
  const unique = new Map<string, string>();
  for (const [id, name] of vats) if (name !== undefined && count.get(name) === 1) unique.set(name, id);
  return unique;
}

export class VatMatching {
  private readonly bySide: Record<Side, Map<string, VatMatch>> = { base: new Map(), head: new Map() };
  private readonly matches: VatMatch[] = [];

  constructor(base: SideVats, head: SideVats) {
    const baseNames = uniqueNames(base);
    const headNames = uniqueNames(head);
    for (const [name, baseID] of baseNames) {
      const headID = headNames.get(name);
      if (headID !== undefined) this.add({ key: baseID === headID ? baseID : name, name, base: baseID, head: headID, by: 'name' });
    }
    const ids = new Set([...base.keys(), ...head.keys()]);
    for (const id of ids) {
      const inBase = base.has(id) && !this.bySide.base.has(id);
      const inHead = head.has(id) && !this.bySide.head.has(id);
      if (!inBase && !inHead) continue;
      const baseName = inBase ? base.get(id) : undefined;
      const headName = inHead ? head.get(id) : undefined;
      if (baseName !== undefined && headName !== undefined && baseName !== headName) {
        // Both sides name the vat of this ID, each another name: two vats, each on its side with its own name.
        this.add({ key: id, name: baseName, base: id, by: 'id' });
        this.add({ key: id, name: headName, head: id, by: 'id' });
        continue;
      }
      const name = headName ?? baseName;
      this.add({
        key: id,
        ...(name === undefined ? {} : { name }),
        ...(inBase ? { base: id } : {}),
        ...(inHead ? { head: id } : {}),
        by: 'id',
      });
    }
    this.matches.sort((a, b) => compareVatIDs(a.head ?? a.base ?? '', b.head ?? b.base ?? '') || compareVatIDs(a.base ?? '', b.base ?? ''));
  }

  private add(match: VatMatch): void {
    this.matches.push(match);
    if (match.base !== undefined) this.bySide.base.set(match.base, match);
    if (match.head !== undefined) this.bySide.head.set(match.head, match);
  }

  /** The match of one side's vat. */
  of(side: Side, vatID: string): VatMatch {
    const found = this.bySide[side].get(vatID);
    if (found) return found;
    // A vat the matching was not told of: itself, by ID.
    const match: VatMatch = { key: vatID, [side]: vatID, by: 'id' };
    this.add(match);
    return match;
  }

  /** Every vat, in vat order (the head's IDs first). */
  all(): readonly VatMatch[] {
    return this.matches;
  }

  /**
   * How report rows and `vat=` scopes name a vat: its key, unless that is an
   * ID the other side gives to another vat (it is on one side only, and the
   * other side's vat of that ID is matched elsewhere): then its name when no
   * other vat has it, else its ID and side (`v6@head`).
   */
  keyOf(match: VatMatch): string {
    const side: Side | undefined = match.head === undefined ? 'base' : match.base === undefined ? 'head' : undefined;
    if (side === undefined) return match.key;
    const id = match[side] as string;
    if (match.key !== id || !this.bySide[other(side)].has(id)) return match.key;
    const name = match.name;
    if (name !== undefined && !this.matches.some((m) => m !== match && (m.key === name || m.name === name))) return name;
    return `${id}@${side}`;
  }

  /**
   * The vat a `vat=` scope names, when the matching decides it: its `keyOf`,
   * its name (matched by name), an ID and side (`v6@head`), or one side's ID.
   * Throws when an ID names different vats on the two sides (write the name
   * instead). Undefined: no vat is known by that word.
   */
  scoped(vat: string): VatMatch | undefined {
    const byKey = this.matches.find((m) => this.keyOf(m) === vat || (m.by === 'name' && m.name === vat));
    if (byKey) return byKey;
    const sided = /^(.+)@(base|head)$/.exec(vat);
    if (sided) return this.bySide[sided[2] as Side].get(sided[1] as string);
    const inBase = this.bySide.base.get(vat);
    const inHead = this.bySide.head.get(vat);
    if (inBase && inHead && inBase !== inHead) {
      throw new VatScopeError(
        `vat=${vat} is ${inBase.name ?? 'an unnamed vat'} in the base and ${inHead.name ?? 'an unnamed vat'} in the head (vats are matched by name); write vat=${this.keyOf(inBase)} or vat=${this.keyOf(inHead)}`,
      );
    }
    return inBase ?? inHead;
  }
}

const other = (side: Side): Side => (side === 'base' ? 'head' : 'base');

export class VatScopeError extends Error {}
