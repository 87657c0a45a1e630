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

/**
 * readTail against JSON.parse, through one scanner line after line, as the
 * reader uses it: a time that shares its second with the one before is read
 * from its fraction alone (sameSecondTime), so each case comes after times
 * of the same second, of another, negative, and not exactly computed ones.
 */
describe('readTail reads the time, monotime and seconds of each line as JSON.parse does, whatever line came before', () => {
  const TIMES = [
    '1795308057.5',
    '1795308057.500001',
    '1795308057.999999',
    '1795308057.9999999999',
    '1795308058',
    '1795308058.000001',
    '-1795308058.25',
    '1795308058.25',
    '0.5',
    '0.25',
    '7.5',
    '10.5',
    '9007199254.5',
    // 2^53 + 1 µs-digits: not exact as a sum, so left to Number().
    '9007199254.740993',
    '9007199254.7409915',
    '9007199254.74099',
    '9007199254.12345678901234567890123',
    '123456789012345678.5',
    '123456789012345678.25',
  ];
  /** Not a plain JSON number: the tail is not read. */
  const BAD = ['1795308057.', '01795308057.5', '.5', '1795308057..5', '-', '1795308057.5.5'];
  /** Monotimes of the same second and of others, negative, whole, long: the monotime's key and integer part are compared as the time's are. */
  const MONOTIMES = ['12.5', '12.077711127', '12.25', '13.1', '-1.5', '12', '0.5', '123456789012.5', '1234567890123.5', '12.5'];
  const line = (time: string, k: number): Buffer =>
    Buffer.from(`{"type":"deliver","crankNum":1,"time":${time},"monotime":${MONOTIMES[k % MONOTIMES.length]}${k % 3 === 2 ? ',"seconds":0.25' : ''}}`, 'latin1');

  type Tail = { ok: boolean; time?: number; tailStart?: number; monotime?: number; seconds?: number };
  function readAll(times: readonly string[]): Tail[] {
    const sc = new ByteScanner();
    return times.map((t, k) => {
      const buf = line(t, k);
      sc.reset(buf, 0, buf.length);
      return sc.readTail(0) ? { ok: true, time: sc.time, tailStart: sc.tailStart, monotime: sc.monotime(), seconds: sc.seconds() } : { ok: false };
    });
  }
  function expected(times: readonly string[]): Tail[] {
    return times.map((t, k) => {
      const text = line(t, k).toString('latin1');
      if (BAD.includes(t)) return { ok: false };
      const entry = JSON.parse(text) as { time: number; monotime: number; seconds?: number };
      return { ok: true, time: entry.time, tailStart: text.indexOf(',"time":'), monotime: entry.monotime, seconds: entry.seconds };
    });
  }

  it.each([
    ['in order', TIMES],
    ['in reverse', [...TIMES].reverse()],
    ['each twice', TIMES.flatMap((t) => [t, t])],
    ['each after a bad one of its second', TIMES.flatMap((t, k) => [BAD[k % BAD.length] as string, t])],
    ['each after every other', TIMES.flatMap((t) => TIMES.flatMap((u) => [u, t]))],
  ])('%s', (_label, times) => {
    expect(readAll(times)).toEqual(expected(times));
  });

  it('a second given again in another place of the line (a longer key or integer) is not taken for the same', () => {
    const sc = new ByteScanner();
    const first = Buffer.from('{"type":"x","time":1795308057.5,"monotime":1.5}', 'latin1');
    sc.reset(first, 0, first.length);
    expect(sc.readTail(0)).toBe(true);
    // The same eight bytes before the dot: under another key, in a longer integer, after other first digits.
    for (const text of [
      '{"type":"x","xtime":1795308057.25,"monotime":1.5}',
      '{"type":"x","time":21795308057.25,"monotime":1.5}',
      '{"type":"x","time":2795308057.25,"monotime":1.5}',
    ]) {
      sc.reset(first, 0, first.length);
      expect(sc.readTail(0)).toBe(true);
      const buf = Buffer.from(text, 'latin1');
      sc.reset(buf, 0, buf.length);
      const ok = sc.readTail(0);
      expect(ok).toBe(text.includes(',"time":'));
      if (ok) expect(sc.time).toBe((JSON.parse(text) as { time: number }).time);
    }
  });
});
