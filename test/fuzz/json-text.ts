/**
 * JSON text as a slog line holds it, written from a value whose every choice
 * can be varied: a record is a list of members (keys in any order, a key
 * twice), a number or any token can be given as its exact text (`1e400`,
 * `-0`, `1E+2`, `007`), and the writer can put spaces after colons and
 * commas and write strings with `\u` escapes. The slogger's own lines are
 * `JSON.stringify`'s: no spaces, no escapes but the needed ones.
 */

/** A token written as this exact text (a number as a writer other than JSON.stringify spells it, or something that is not JSON at all). */
export class Raw {
  constructor(readonly text: string) {}
}

/** A record: its members in order, a key maybe twice. */
export class Rec {
  constructor(readonly members: ReadonlyArray<readonly [string, Value]>) {}
}

export type Value = null | boolean | number | string | Raw | Rec | readonly Value[];

export interface TextStyle {
  /** Put after each colon and comma ('' as the slogger writes). */
  space: string;
  /** How strings are written: as JSON.stringify does; non-ASCII as `\u` escapes; every character of a key as `\u` escapes; `/` as `\/`. */
  strings: 'plain' | 'escape-non-ascii' | 'escape-keys' | 'escape-slash';
}

export const SLOGGER_STYLE: TextStyle = { space: '', strings: 'plain' };

const hex4 = (code: number): string => `\\u${code.toString(16).padStart(4, '0')}`;

function stringText(s: string, style: TextStyle, key: boolean): string {
  const plain = JSON.stringify(s);
  switch (style.strings) {
    case 'plain':
      return plain;
    case 'escape-non-ascii':
      return plain.replace(/[^\x20-\x7e]/g, (ch) => hex4(ch.charCodeAt(0)));
    case 'escape-keys':
      return key ? `"${Array.from({ length: s.length }, (_, i) => hex4(s.charCodeAt(i))).join('')}"` : plain;
    case 'escape-slash':
      return plain.replaceAll('/', '\\/');
  }
}

/** The JSON text of a value, in a style. */
export function jsonText(value: Value, style: TextStyle = SLOGGER_STYLE): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : 'null';
  if (typeof value === 'string') return stringText(value, style, false);
  if (value instanceof Raw) return value.text;
  const comma = `,${style.space}`;
  if (value instanceof Rec) return `{${value.members.map(([k, v]) => `${stringText(k, style, true)}:${style.space}${jsonText(v, style)}`).join(comma)}}`;
  return `[${(value as readonly Value[]).map((v) => jsonText(v, style)).join(comma)}]`;
}

/** A plain JSON value (JSON.parse's) as a Value: records keep their key order. */
export function fromJson(value: unknown): Value {
  if (value === null || typeof value === 'boolean' || typeof value === 'number' || typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(fromJson);
  return new Rec(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, fromJson(v)] as const));
}

/** A record of these members (undefined values left out). */
export function rec(members: Record<string, Value | undefined>): Rec {
  return new Rec(Object.entries(members).filter((m): m is [string, Value] => m[1] !== undefined));
}
