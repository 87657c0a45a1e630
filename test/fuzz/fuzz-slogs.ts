/**
 * Whole slogs to read: lines from the grammar (slog-grammar.ts) or real
 * lines (real-lines.ts), some damaged (mutations.ts), joined with `\n` or
 * `\r\n`, maybe with a byte-order mark first and no line end last.
 */
import fc from 'fast-check';
import { mutateAll, mutation } from './mutations.js';
import { realLines } from './real-lines.js';
import { grammarLine } from './slog-grammar.js';

/** Whole lines at the edges: blank in one reader's sense and not the other's, no object, no type, a bare crank type. */
const EDGE_LINES = [
  '', ' ', '\t', '\r', '\u00a0', '\ufeff', '\u2028', ' \u00a0 ', '\u0000', '{}', '[]', 'null', '7', '"type"', '{"type":1}', '{"type":null}',
  '{"body":{"type":"console"},"type":"x"}', '{"body":{"type":"console"}}', '{"body":[],"time":1}', '{"type":"syscall"}', '{"type":"crank-start"}',
  '{"type":"clist","time":1,"monotime":2}', '{"type":"deliver-result","dr":["ok",null,{"compute":5}],"time":1,"monotime":2}', '{"type":"syscall","time":-0,"monotime":-0.0}',
  '{"type":"create-vat","vatSourceBundle":{},"time":1,"monotime":2}', '{"type":"create-vat","vatSourceBundle":{"a":[}]},"time":1,"monotime":2}', '{"type":"create-vat","vatSourceBundle":{},"x":{},"time":1,"monotime":2}',
];

/** A real line, one from the grammar, or an edge case. */
export const sourceLine: fc.Arbitrary<string> = fc.oneof(
  { weight: 10, arbitrary: grammarLine },
  { weight: 10, arbitrary: fc.constantFrom(...realLines()) },
  { weight: 1, arbitrary: fc.constantFrom(...EDGE_LINES) },
);

/** A line's bytes: mostly damaged, sometimes as written. */
export const fuzzLine: fc.Arbitrary<Buffer> = fc
  .tuple(sourceLine, fc.oneof({ weight: 2, arbitrary: fc.constant([]) }, { weight: 5, arbitrary: fc.array(mutation, { minLength: 1, maxLength: 3 }) }))
  .map(([text, ms]) => mutateAll(Buffer.from(text), ms));

export interface SlogShape {
  lines: Buffer[];
  crlf: boolean;
  bom: boolean;
  lastNewline: boolean;
}

export const slogShape = (maxLines = 6, line: fc.Arbitrary<Buffer> = fuzzLine): fc.Arbitrary<SlogShape> =>
  fc.record({
    lines: fc.array(line, { minLength: 1, maxLength: maxLines }),
    crlf: fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    bom: fc.oneof({ weight: 6, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    lastNewline: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
  });

export function slogBytes(s: SlogShape): Buffer {
  const eol = Buffer.from(s.crlf ? '\r\n' : '\n');
  const parts: Buffer[] = s.bom ? [Buffer.from([0xef, 0xbb, 0xbf])] : [];
  s.lines.forEach((line, i) => {
    parts.push(line);
    if (i < s.lines.length - 1 || s.lastNewline) parts.push(eol);
  });
  return Buffer.concat(parts);
}

/** A slog's bytes. */
export const fuzzSlog = (maxLines = 6): fc.Arbitrary<Buffer> => slogShape(maxLines).map(slogBytes);
