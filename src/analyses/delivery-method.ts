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
import type { DeliverEntry } from '../model/types.js';
import { decodeBody } from '../model/capdata.js';
import { renderMethod } from '../render/values.js';

export const UNKNOWN_METHOD = '<unknown>';

/** What kind of crank a delivery makes for the per-vat crank counts. */
export type DeliveryClass = 'deliver' | 'notify' | 'other';

/** `message`, `notify`, `startVat`... (the kernel-space form, else the vat-space one). */
export function deliveryKind(entry: DeliverEntry): string | undefined {
  const d = Array.isArray(entry.kd) ? entry.kd : Array.isArray(entry.vd) ? entry.vd : undefined;
  return d && typeof d[0] === 'string' ? d[0] : undefined;
}

export function deliveryClass(entry: DeliverEntry | undefined): DeliveryClass {
  const kind = entry && deliveryKind(entry);
  return kind === 'message' ? 'deliver' : kind === 'notify' ? 'notify' : 'other';
}

/** The method of a `[method, args]` methargs body, read from its start when possible. */
const METHOD_PREFIX = /^(#?)\["((?:[^"\\]|\\.)*)"\s*,/;

function messageMethod(methargs: unknown): string {
  const data = methargs as { body?: unknown; slots?: unknown } | null | undefined;
  if (!data || typeof data.body !== 'string') return '<unintelligible method>';
  const m = METHOD_PREFIX.exec(data.body.length > 400 ? data.body.slice(0, 400) : data.body);
  try {
    if (m) return renderMethod(JSON.parse(`"${m[2]}"`), m[1] === '#').replaceAll('"', '');
    const { value, smallcaps } = decodeBody({ body: data.body, slots: [] });
    return renderMethod(Array.isArray(value) ? value[0] : undefined, smallcaps).replaceAll('"', '');
  } catch {
    return '<unintelligible method>';
  }
}

export function deliveryMethod(entry: DeliverEntry): string {
  const d = Array.isArray(entry.kd) ? entry.kd : Array.isArray(entry.vd) ? entry.vd : undefined;
  if (!d || typeof d[0] !== 'string') return UNKNOWN_METHOD;
  if (d[0] !== 'message') return d[0];
  return messageMethod((d[2] as { methargs?: unknown } | undefined)?.methargs);
}
