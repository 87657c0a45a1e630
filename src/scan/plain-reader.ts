/**
 * The plain path: one line of text to one entry with JSON.parse. Every line
 * the byte reader (fast-reader.ts) does not take comes here, and every line
 * of a pass that takes no fast path (SLOGULATE_FAST=0), so that it is read,
 * or reported, the same either way.
 *
 * A line is an entry when it is a JSON object with a string `type`. A line of
 * a contextual slog (agoric-sdk's CONTEXTUAL_SLOGFILE: `{"body": entry,
 * "attributes": {...}, "time": T}`) is its body, given the line's `time` and
 * what the attributes say of the crank (`crank.num`, `crank.vatID`,
 * `crank.deliveryNum`, `crank.syscallNum`, `replay`) where a crank entry's
 * body lacks it.
 */
import { fromParsed } from './entries.js';
import { isCrankEntryType, type SlogEntry } from './entry-types.js';
import type { ReadPlan } from './read-plan.js';

/** A line that is not a slog entry: why (a one-line reason). */
export class BadLine {
  constructor(readonly why: string) {}
}

/** Attributes of a contextual line, and the entry field each fills. */
const CONTEXT_FIELDS: ReadonlyArray<readonly [string, string]> = [
  ['crank.num', 'crankNum'],
  ['crank.vatID', 'vatID'],
  ['crank.deliveryNum', 'deliveryNum'],
  ['crank.syscallNum', 'syscallNum'],
  ['replay', 'replay'],
];

/** The entry of a contextual line, or undefined when the line is not one. */
function contextualBody(line: Record<string, unknown>): Record<string, unknown> | undefined {
  const body = line.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const entry = body as Record<string, unknown>;
  if (typeof entry.type !== 'string' || 'type' in line) return undefined;
  if (entry.time === undefined && typeof line.time === 'number') entry.time = line.time;
  const attributes = line.attributes;
  // What the attributes say of the crank belongs to the crank's own entries (a start-replay inside one is no replay).
  if (attributes !== null && typeof attributes === 'object' && isCrankEntryType(entry.type)) {
    const a = attributes as Record<string, unknown>;
    for (const [from, to] of CONTEXT_FIELDS) if (entry[to] === undefined && a[from] !== undefined) entry[to] = a[from];
  }
  return entry;
}

/**
 * Reads one line of text: the entry, a BadLine, or undefined for a blank
 * line. `unterminated`: the input's last line, without a newline (a slog cut
 * short, or still being written).
 */
export function readPlainLine(text: string, plan: ReadPlan, unterminated = false): SlogEntry | BadLine | undefined {
  if (blank(text)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const why = oneLine((err as Error).message);
    return new BadLine(unterminated ? `truncated last line (no newline at end): ${why}` : `not JSON: ${why}`);
  }
  return entryOf(value, plan);
}

/** A parsed line (JSON.parse's, or a big line's: big-line.ts) to its entry, or a BadLine. */
export function entryOf(value: unknown, plan: ReadPlan): SlogEntry | BadLine {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return new BadLine('not a slog entry (not a JSON object)');
  let line = value as Record<string, unknown>;
  if (typeof line.type !== 'string') {
    const body = contextualBody(line);
    if (!body) return new BadLine('not a slog entry (no "type" string)');
    line = body;
  }
  const type = line.type as string;
  if (isCrankEntryType(type)) return fromParsed(line, type, plan);
  // No consumer reads a vat's source bundle (a megabyte of base64): not kept.
  if (type === 'create-vat' && 'vatSourceBundle' in line) delete line.vatSourceBundle;
  return line as SlogEntry;
}

/**
 * A line of nothing but JSON's white space (space, tab, line ends): no
 * entry, and no bad line. Not String.trim's: a no-break space or a
 * byte-order mark is no JSON (the token path, json-tokens.ts, says so too).
 */
function blank(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 13 && c !== 10) return false;
  }
  return true;
}

/** Error messages can quote the line: keep them to one short line. */
export function oneLine(message: string): string {
  const flat = message.replace(/\s+/g, ' ');
  return flat.length > 160 ? `${flat.slice(0, 157)}...` : flat;
}
