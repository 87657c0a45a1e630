/**
 * The "method" of a delivery, the key of the per-vat+method statistics:
 *
 * - a `message` delivery: its method as the text render prints it (`openAccount`,
 *   `[Symbol.asyncIterator]` for a symbol, `<funcall>` for a function call);
 * - any other delivery: its kind, verbatim from the slog (`notify`, `startVat`,
 *   `bringOutYourDead`, `dropExports`, `retireExports`, `retireImports`,
 *   `stopVat`, `changeVatOptions`, ...);
 * - a deliver entry without a readable delivery: `<unknown>`.
 *
 * Message and notify names never collide: a method literally named `notify`
 * would share the row of notifies, which we accept for the sake of short keys.
 */
import type { DeliverEntry } from '../../scan/entry-types.js';

export const UNKNOWN_METHOD = '<unknown>';

/** What kind of crank a delivery makes for the per-vat crank counts. */
export type DeliveryClass = 'deliver' | 'notify' | 'other';

export function deliveryClass(entry: DeliverEntry | undefined): DeliveryClass {
  const kind = entry?.kind;
  return kind === 'message' ? 'deliver' : kind === 'notify' ? 'notify' : 'other';
}

/** The delivery's method (a message) or kind; reads `kind` and `method` (DELIVERY_METHOD_READS). */
export function deliveryMethod(entry: DeliverEntry): string {
  if (entry.kind === undefined) return UNKNOWN_METHOD;
  return entry.kind === 'message' ? (entry.method ?? '<unintelligible method>') : entry.kind;
}

/** What deliveryClass and deliveryMethod read of a delivery. */
export const DELIVERY_METHOD_READS = ['kind', 'method'] as const;
