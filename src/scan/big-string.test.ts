/**
 * The pieces a big line is read with: stream-json's tokenizer as this
 * project uses it (json-tokens.ts; pinned here, so that an upgrade that
 * changes it fails a test), BigStrings and their spool, and the sentinels
 * a render prints them through.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIG_STRING_CHARS, BigString, BigTextScope, HEAD_CHARS, Spool } from './big-string.js';
import { JsonTokenError, JsonTokens, type JsonToken } from './json-tokens.js';

function tokens(pieces: Array<string | Buffer>): JsonToken[] {
  const out: JsonToken[] = [];
  const t = new JsonTokens((token) => out.push({ ...token }));
  for (const p of pieces) t.write(p);
  t.end();
  return out;
}

describe('stream-json tokens (json-tokens.ts)', () => {
  it('keys and numbers whole, strings in chunks of at most 256 characters', () => {
    const long = 'é'.repeat(700);
    const text = `{"type":"x","n":-1.5e3,"s":${JSON.stringify(long)},"a":[true,false,null,"\\n\\""]}`;
    // Cut inside a two-byte character: the tokenizer decodes across chunks.
    const bytes = Buffer.from(text);
    const got = tokens([bytes.subarray(0, 31), bytes.subarray(31, 500), bytes.subarray(500)]);
    const names = got.map((t) => t.name);
    expect(names.slice(0, 5)).toEqual(['startObject', 'keyValue', 'startString', 'stringChunk', 'endString']);
    expect(got.find((t) => t.name === 'numberValue')?.value).toBe('-1.5e3');
    const chunks = got.filter((t) => t.name === 'stringChunk').map((t) => t.value as string);
    expect(chunks.every((c) => c.length <= 256)).toBe(true);
    expect(chunks.join('')).toBe(`x${long}\n"`);
    // An escape is a chunk of its own.
    expect(names.slice(-10)).toEqual(['startArray', 'trueValue', 'falseValue', 'nullValue', 'startString', 'stringChunk', 'stringChunk', 'endString', 'endArray', 'endObject']);
  });

  it('text that is not one JSON value throws JsonTokenError, at the piece or at the end', () => {
    expect(() => tokens(['{"a":'])).toThrow(JsonTokenError);
    expect(() => tokens(['{"a":1}', ' {']).slice()).toThrow(JsonTokenError);
    expect(() => tokens(['[1,]'])).toThrow(JsonTokenError);
    expect(() => tokens(['"abc'])).toThrow(JsonTokenError);
    expect(() => tokens(['01'])).toThrow(JsonTokenError);
    expect(() => tokens(['   '])).toThrow(/has expected a value/);
    expect(tokens(['  {} \r\n'])).toEqual([{ name: 'startObject' }, { name: 'endObject' }]);
  });
});

describe('BigString', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  function build(text: string, spool = new Spool(), piece = 251, scope?: BigTextScope): BigString {
    const big = new BigString(spool, scope);
    for (let i = 0; i < text.length; i += piece) big.append(text.slice(i, i + piece));
    big.end();
    return big;
  }

  /** TMPDIR as it was (`process.env.TMPDIR = undefined` would set the text "undefined", seen by every later run in this process). */
  const restoreTmpdir = (saved: string | undefined): void => {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  };

  // Surrogate pairs at every offset, so that some fall on the spool's 64K piece boundaries.
  const text = Array.from({ length: 150_000 }, (_, i) => (i % 7 === 0 ? '😀' : i % 5 === 0 ? 'é\n"' : 'ab')).join('');

  it('gives back its text, its length and its head, from a spool that leaves no file behind', () => {
    dir = mkdtempSync(join(tmpdir(), 'bigstring-'));
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = dir;
    try {
      const big = build(text);
      expect(big.text()).toBe(text);
      expect(big.length).toBe(text.length);
      expect(big.head).toBe(text.slice(0, HEAD_CHARS));
      expect(big.jsonLength()).toBe(JSON.stringify(text).length - 2);
      expect([...big.pieces()].join('')).toBe(text);
      // The spool file was unlinked as soon as it was made.
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      restoreTmpdir(saved);
    }
  });

  it('keeps its text in memory when no temporary file can be made', () => {
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = '/nonexistent/slogulate-test';
    try {
      const big = build(text, new Spool(), 170_001);
      expect(big.text()).toBe(text);
    } finally {
      restoreTmpdir(saved);
    }
  });

  it('prints as its text outside its scope\'s run; inside it as a sentinel that the scope writes out as its text', () => {
    const scope = new BigTextScope();
    const big = build(text, new Spool(), 251, scope);
    expect(`${big}`).toBe(text);
    expect(JSON.stringify({ big })).toBe(JSON.stringify({ big: text }));
    const line = scope.run(() => `log: ${big} ${JSON.stringify([big, 1])}`);
    expect(scope.running).toBe(false);
    expect(`${big}`).toBe(text);
    expect(line.length).toBeLessThan(100);
    expect(scope.holding).toBe(true);
    const want = `log: ${text} ${JSON.stringify([text, 1])}`;
    expect(scope.expandedLength(line)).toBe(want.length);
    let out = '';
    const pieces: string[] = [];
    scope.write(`${line}\n`, (piece) => {
      pieces.push(piece);
      out += piece;
    });
    expect(out).toBe(`${want}\n`);
    // Written in pieces: never the text as one string.
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThanOrEqual(2 * 65536);
    expect(scope.expand(line)).toBe(want);
    scope.release();
    expect(scope.holding).toBe(false);
    // A sentinel the scope no longer knows is written as it is; text without one, untouched.
    scope.write(line, (piece) => expect(piece).toBe(line));
  });

  it('prints as its text inside the run of a scope not its own, or when made for none', () => {
    const mine = new BigTextScope();
    const other = new BigTextScope();
    const big = build(text, new Spool(), 251, mine);
    const plain = build(text);
    expect(other.run(() => `${big} ${JSON.stringify(plain)}`)).toBe(`${text} ${JSON.stringify(text)}`);
    expect(other.holding).toBe(false);
    // Its own scope's run inside another's: a sentinel, and the other scope's run goes on after.
    const nested = other.run(() => [mine.run(() => `${big}`), other.running, mine.running] as const);
    expect(nested[0].length).toBeLessThan(100);
    expect(mine.expand(nested[0])).toBe(text);
    expect(nested.slice(1)).toEqual([true, false]);
  });

  it('is made only for strings over BIG_STRING_CHARS (the limit is what the tests above and big-line tests size by)', () => {
    expect(BIG_STRING_CHARS).toBeLessThan(65536);
    expect(HEAD_CHARS).toBeGreaterThanOrEqual(400);
  });
});
