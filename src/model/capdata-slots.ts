/**
 * Where the slots of a capdata value sit: the path from the top of the value
 * to each slot reference, in body order. Paths name record keys with `.key`
 * and array elements with `[i]`: in `{left: @ko33, pair: [@ko34]}` the slots
 * are at `.left` and `.pair[0]`; a value that is a bare reference is at ``.
 * Smallcaps (`$0.Alleged: x`, `&1`) and legacy (`{"@qclass":"slot"}`) bodies
 * are both understood.
 */
import { decodeBody } from '../scan/capdata.js';
import type { CapData } from '../scan/entry-types.js';

/** Called for each slot reference: its index in `slots`, and its path. */
export type SlotVisitor = (slot: number, path: string) => void;

export interface DecodedBody {
  value: unknown;
  smallcaps: boolean;
}

/** The decoded body and whether it is smallcaps; undefined when the body is not JSON. */
export function decodeCapData(data: CapData): DecodedBody | undefined {
  try {
    return decodeBody(data);
  } catch {
    return undefined;
  }
}

function smallcapsSlot(text: string): number {
  const tag = text.charCodeAt(0);
  if (tag !== 36 && tag !== 38) return -1; // '$' remotable, '&' promise
  const dot = text.indexOf('.');
  const digits = dot < 0 ? text.slice(1) : text.slice(1, dot);
  return /^\d+$/.test(digits) ? Number(digits) : -1;
}

function walk(value: unknown, smallcaps: boolean, path: string, visit: SlotVisitor): void {
  if (typeof value === 'string') {
    if (smallcaps) {
      const slot = smallcapsSlot(value);
      if (slot >= 0) visit(slot, path);
    }
    return;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) walk(value[i], smallcaps, `${path}[${i}]`, visit);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const record = value as Record<string, unknown>;
  if (!smallcaps && record['@qclass'] === 'slot') {
    const index = Number(record.index);
    if (Number.isInteger(index) && index >= 0) visit(index, path);
    return;
  }
  for (const key of Object.keys(record)) walk(record[key], smallcaps, `${path}.${key}`, visit);
}

/** Visits the slots of a whole value (a resolution, an invoke's arguments or result). */
export function walkValueSlots(decoded: DecodedBody, visit: SlotVisitor): void {
  walk(decoded.value, decoded.smallcaps, '', visit);
}

/**
 * Visits the slots of a message's arguments (`methargs` is `[method, args]`,
 * a 2021 message's made so by scan/message.ts `messageMethargs`); paths
 * start with the argument's index: `[1].brand`.
 */
export function walkArgsSlots(decoded: DecodedBody, visit: SlotVisitor): void {
  const args = Array.isArray(decoded.value) ? decoded.value[1] : undefined;
  if (Array.isArray(args)) walk(args, decoded.smallcaps, '', visit);
}
