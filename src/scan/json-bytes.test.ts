import { describe, expect, it } from 'vitest';
import { ByteScanner } from './json-bytes.js';

/** Does ByteScanner.skipValue take `text` whole as one JSON value, as JSON.parse does? */
function skipsWhole(text: string): boolean {
  const buf = Buffer.from(text, 'latin1');
  const sc = new ByteScanner();
  sc.reset(buf, 0, buf.length);
  return sc.skipValue() && sc.pos === buf.length;
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

describe('a long string (over 64 KB, as a create-vat bundle) is skipped as JSON.parse reads it', () => {
  const N = 100_000;
  const base = 'QUJD'.repeat(N / 4);
  // Positions near the start, around the 4 KB and 64 KB marks, and at the end.
  const places = [0, 1, 4095, 4096, 4097, 65535, 65536, 65537, N - 2, N - 1];
  const inserts = ['"', '\\', '\\"', '\\n', '\\u0041', '\\u00zz', '\\x', '\u0000', '\u0001', '\n', '\u001f', ' ', '\u007f', '\u00ff'];

  it('with no special byte', () => {
    expect(skipsWhole(`"${base}"`)).toBe(true);
    expect(skipsWhole(`"${base}`)).toBe(false);
  });

  for (const insert of inserts) {
    it(`with ${JSON.stringify(insert)} inside`, () => {
      for (const at of places) {
        const text = `"${base.slice(0, at)}${insert}${base.slice(at)}"`;
        expect(skipsWhole(text), `at ${at}`).toBe(parses(text));
      }
    });
  }

  it('inside an object, with bytes after the string in the same buffer', () => {
    const text = `{"endoZipBase64":"${base}","moduleFormat":"endoZipBase64"}`;
    const buf = Buffer.from(`${text},"time":1\n${'\u0001'.repeat(10)}`, 'latin1');
    const sc = new ByteScanner();
    sc.reset(buf, 0, buf.length);
    expect(sc.skipValue()).toBe(true);
    expect(sc.pos).toBe(text.length);
  });
});
