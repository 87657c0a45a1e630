/**
 * Vat names: the annotation file's `vatNames` win; else the name a vat was
 * created with (`create-vat.name`, or a create-vat crank message's
 * `dynamicOptions.name`), learned as the slog streams by.
 */
import type { CrankStartEntry, SlogEntry } from '../scan/entry-types.js';

export const NO_NAME = '<no name>';
/** A crank whose vat the slog does not say. */
export const NO_VAT = '<no vat>';

export class VatNames {
  private readonly learned = new Map<string, string>();

  constructor(private readonly annotated: ReadonlyMap<string, string> = new Map()) {}

  /** Learns names from create-vat entries and create-vat crank messages. */
  observe(entry: SlogEntry): void {
    if (entry.type === 'create-vat') {
      const { vatID, name } = entry;
      if (typeof vatID === 'string' && typeof name === 'string' && name) this.learned.set(vatID, name);
    } else if (entry.type === 'crank-start') {
      const message = (entry as CrankStartEntry).message;
      const name = message?.dynamicOptions?.name;
      if (message?.type === 'create-vat' && typeof message.vatID === 'string' && typeof name === 'string' && name) {
        if (!this.learned.has(message.vatID)) this.learned.set(message.vatID, name);
      }
    }
  }

  /** The vat's name, or undefined when nothing names it. */
  lookup(vatID: string | undefined): string | undefined {
    if (vatID === undefined) return undefined;
    return this.annotated.get(vatID) ?? this.learned.get(vatID);
  }

  /** The vat's name, or `<no name>`. */
  label(vatID: string | undefined): string {
    return this.lookup(vatID) ?? NO_NAME;
  }

  /** The vat whose name (annotated or learned) is `name`, if any. */
  idForName(name: string): string | undefined {
    for (const [id, n] of this.annotated) if (n === name) return id;
    for (const [id, n] of this.learned) if (n === name) return id;
    return undefined;
  }

  /** Every vat ID with a name, annotated first. */
  entries(): Array<[string, string]> {
    const out = new Map<string, string>(this.learned);
    for (const [id, n] of this.annotated) out.set(id, n);
    return [...out];
  }
}
