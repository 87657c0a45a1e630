/**
 * Interned strings: each distinct string is kept once and stood for by a
 * small number (method names, vat IDs, value paths in the kref model).
 */
export class Interner {
  private readonly ids = new Map<string, number>();
  private readonly strings: string[] = [];

  /** The number standing for `text` (a new one the first time). */
  id(text: string): number {
    let id = this.ids.get(text);
    if (id === undefined) {
      id = this.strings.length;
      this.strings.push(text);
      this.ids.set(text, id);
    }
    return id;
  }

  /** The number standing for `text`, or -1 when it was never interned. */
  find(text: string): number {
    return this.ids.get(text) ?? -1;
  }

  /** The string `id` stands for (undefined for -1 or an unknown id). */
  get(id: number): string | undefined {
    return id < 0 ? undefined : this.strings[id];
  }

  get size(): number {
    return this.strings.length;
  }
}
