/**
 * A big line's capdata bodies (BigStrings, scan/big-string.ts) are decoded
 * as their text is read back, the parts longer than bigWidth dropped as they
 * go by (scan/body-decoder.ts): what prints must be what the same body
 * prints when held whole and JSON.parse'd, at every width, for every sort of
 * value (smallcaps and legacy, references, @qclass records, deep nesting).
 */
import { describe, expect, it } from 'vitest';
import { BigString, Spool } from '../scan/big-string.js';
import { renderCallArgs, renderCapData, renderMethargs, type ValueContext } from './values.js';

/** A seeded generator, so that a failure can be replayed. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function text(r: () => number, max: number): string {
  const plain = ['abc', 'b', ' ', 'é', '😀', '.', '0', '9', 'xyz'];
  const escaped = ['"', '\\', '\n'];
  const n = Math.floor(r() ** 3 * max);
  let out = '';
  while (out.length < n) out += r() < 0.05 ? escaped[Math.floor(r() * escaped.length)] : plain[Math.floor(r() * plain.length)];
  return out;
}

/** Nodes a generated value may still have (values stay small enough to compare quickly). */
let budget = 0;

/** A smallcaps-encoded value (strings carry their tags). */
function smallcapsValue(r: () => number, depth: number): unknown {
  const pick = r();
  budget -= 1;
  if (depth > 4 || pick < 0.45 || budget <= 0) {
    const kind = Math.floor(r() * 10);
    switch (kind) {
      case 0:
        return `$${Math.floor(r() * 4)}${r() < 0.7 ? `.Alleged: ${text(r, 300)}` : ''}`;
      case 1:
        return `&${Math.floor(r() * 4)}`;
      case 2:
        return ['#undefined', '#NaN', '#Infinity', '#'][Math.floor(r() * 4)];
      case 3:
        return `${r() < 0.5 ? '+' : '-'}${'7'.repeat(Math.floor(r() ** 2 * 300))}`;
      case 4:
        return `%${text(r, 300)}`;
      case 5:
        return `!${text(r, 300)}`;
      case 6:
        return Math.floor(r() * 1e6) / (r() < 0.5 ? 1 : 7);
      case 7:
        return [true, false, null][Math.floor(r() * 3)];
      default:
        return text(r, 300);
    }
  }
  const n = Math.floor(r() ** 2 * 60);
  if (pick < 0.75) return Array.from({ length: n }, () => smallcapsValue(r, depth + 1));
  const record: Record<string, unknown> = {};
  for (let i = 0; i < n; i += 1) record[r() < 0.1 ? `${i}` : `k${i}${text(r, 5)}`] = smallcapsValue(r, depth + 1);
  return record;
}

/** A legacy-encoded value, with @qclass records. */
function legacyValue(r: () => number, depth: number): unknown {
  const pick = r();
  budget -= 1;
  if (depth > 4 || pick < 0.4 || budget <= 0) {
    const kind = Math.floor(r() * 8);
    switch (kind) {
      case 0:
        return { '@qclass': 'slot', index: Math.floor(r() * 3) };
      case 1:
        return { '@qclass': 'bigint', digits: '3'.repeat(Math.floor(r() ** 2 * 300)) };
      case 2:
        return { '@qclass': ['undefined', 'NaN', 'Infinity', '-Infinity', '@@asyncIterator'][Math.floor(r() * 5)], junk: legacyValue(r, depth + 1) };
      case 3:
        return { '@qclass': 'symbol', name: text(r, 300) };
      case 4:
        return { '@qclass': 'error', message: text(r, 300), name: 'TypeError', extra: legacyValue(r, depth + 1) };
      case 5:
        return { '@qclass': 'tagged', tag: text(r, 50), payload: legacyValue(r, depth + 1), ignored: text(r, 300) };
      case 6:
        return { '@qclass': 'hilbert', original: legacyValue(r, depth + 1), rest: { a: legacyValue(r, depth + 1), b: text(r, 300) } };
      default:
        return text(r, 300);
    }
  }
  const n = Math.floor(r() ** 2 * 50);
  if (pick < 0.7) return Array.from({ length: n }, () => legacyValue(r, depth + 1));
  const record: Record<string, unknown> = {};
  for (let i = 0; i < n; i += 1) record[`k${i}`] = legacyValue(r, depth + 1);
  return record;
}

const spool = new Spool();

function bigString(body: string): BigString {
  const big = new BigString(spool);
  for (let i = 0; i < body.length; i += 97) big.append(body.slice(i, i + 97));
  big.end();
  return big;
}

const WIDTHS = [0, 12, 200, 100_000];
const SLOTS = ['ko1', 'kp2', 'kd3'];

function ctx(bigWidth: number): ValueContext {
  return { bigWidth, pref: (ref) => (ref === 'ko1' ? '<alice>' : `@${ref}`) };
}

describe('capdata bodies read from a BigString print as when held whole', () => {
  it('whole values (resolutions), call arguments and methargs, smallcaps and legacy, at every width', () => {
    const r = rng(20240611);
    let compared = 0;
    let bigs = 0;
    for (let i = 0; i < 100; i += 1) {
      const legacy = i % 3 === 2;
      budget = 60;
      const value = legacy ? legacyValue(r, 0) : smallcapsValue(r, 0);
      const methargs = [i % 5 === 0 ? `%${text(r, 30)}` : text(r, 40), Array.isArray(value) ? value : [value, legacy ? legacyValue(r, 1) : smallcapsValue(r, 1)]];
      for (const v of [value, methargs, i % 17 === 0 ? text(r, 50) : { notAList: 1 }]) {
        const body = legacy ? JSON.stringify(v) : `#${JSON.stringify(v)}`;
        const held = { body, slots: SLOTS };
        const streamed = { body: bigString(body), slots: SLOTS };
        for (const width of WIDTHS) {
          const c = ctx(width);
          const whole = renderCapData(held, c);
          expect(renderCapData(streamed, c), `value ${i} width ${width}: ${body.slice(0, 200)}`).toBe(whole);
          expect(renderCallArgs(streamed, c), `call args ${i} width ${width}`).toBe(renderCallArgs(held, c));
          expect(renderMethargs(streamed, c), `methargs ${i} width ${width}`).toEqual(renderMethargs(held, c));
          compared += 3;
          if (whole.includes('<BIG>')) bigs += 1;
        }
      }
    }
    expect(compared).toBeGreaterThan(1_000);
    // The collapsing path was taken, not only whole values.
    expect(bigs).toBeGreaterThan(200);
  });

  it('a body that is not JSON is unintelligible either way', () => {
    for (const body of ['#[1,', '{"a":1} x', '', '#', '#[01]', '#["m", [1, 2]]]']) {
      const held = { body, slots: [] };
      const streamed = { body: bigString(body), slots: [] };
      expect(renderCapData(streamed, ctx(200)), body).toBe(renderCapData(held, ctx(200)));
      expect(renderMethargs(streamed, ctx(200)), body).toEqual(renderMethargs(held, ctx(200)));
    }
  });
});
