/**
 * The analyses' line reader (src/input/analysis-lines.ts) against JSON.parse:
 * on every line of every shared slog, what the reader gives the analyses
 * (each field `top`, `stats` and `compare` read of an entry) is what
 * JSON.parse gives; lines in unusual shapes are left to JSON.parse; numbers
 * are read exactly as JSON.parse reads them.
 */
import { describe, expect, it } from 'vitest';
import { deliveryKind, deliveryMethod } from '../src/analyses/delivery-method.js';
import { analysisLineReader } from '../src/input/analysis-lines.js';
import { ENTRIES } from '../src/input/analysis-entries.js';
import { ByteScanner } from '../src/input/json-bytes.js';
import type { CrankStartEntry, DeliverEntry, DeliverResultEntry, SlogEntry, SyscallEntry } from '../src/model/types.js';
import { readSlog, SLOG_NAMES } from './helpers.js';

/** Each line of a slog as [start, end) in its bytes (no '\n'). */
function lineRanges(buf: Buffer): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  let start = 0;
  while (start < buf.length) {
    let nl = buf.indexOf(10, start);
    if (nl < 0) nl = buf.length;
    ranges.push([start, nl]);
    start = nl + 1;
  }
  return ranges;
}

/**
 * What the analyses read of an entry (see src/input/analysis-entries.ts):
 * the crank assembler (type, time, vatID, crank-start's crankNum, crankType
 * and message vat, deliver-result computrons), vat names (create-vat, a
 * create-vat message), syscallName, deliveryKind and deliveryMethod.
 */
function analysisView(entry: SlogEntry, names: boolean): Record<string, unknown> {
  const view: Record<string, unknown> = { type: entry.type, time: entry.time, vatID: typeof entry.vatID === 'string' ? entry.vatID : undefined };
  switch (entry.type) {
    case 'crank-start': {
      const start = entry as CrankStartEntry;
      view.crankNum = start.crankNum;
      view.crankType = start.crankType;
      view.messageType = start.message?.type;
      view.messageVat = start.message?.vatID;
      view.dynamicName = start.message?.dynamicOptions?.name;
      break;
    }
    case 'syscall': {
      const call = entry as SyscallEntry;
      if (names) view.name = Array.isArray(call.ksc) && typeof call.ksc[0] === 'string' ? call.ksc[0] : call.syscall;
      break;
    }
    case 'deliver':
      if (names) {
        view.kind = deliveryKind(entry as DeliverEntry);
        view.method = deliveryMethod(entry as DeliverEntry);
      }
      break;
    case 'deliver-result': {
      const dr = (entry as DeliverResultEntry).dr;
      const compute = Array.isArray(dr) ? dr[2]?.compute : undefined;
      view.computrons = typeof compute === 'number' ? compute : undefined;
      break;
    }
    case 'create-vat': {
      const { vatSourceBundle: _bundle, ...rest } = entry;
      view.entry = rest;
      break;
    }
    default:
      break;
  }
  return view;
}

/** The kinds of lines the reader reads (all others are parsed whole). */
const READ_KINDS = ['crank-start', 'crank-finish', 'syscall', 'syscall-result', 'deliver', 'deliver-result', 'clist', 'create-vat'];

describe.each(SLOG_NAMES)('%s: every line', (slog) => {
  const buf = readSlog(slog);
  const ranges = lineRanges(buf);

  it.each([true, false])('names %s: the reader gives what JSON.parse gives, and reads every usual line', (names) => {
    const read = analysisLineReader({ names });
    const declined = new Map<string, number>();
    let checked = 0;
    for (const [start, end] of ranges) {
      const parsed = JSON.parse(buf.toString('utf8', start, end)) as SlogEntry;
      const entry = read(buf, start, end);
      if (entry === undefined) {
        declined.set(parsed.type, (declined.get(parsed.type) ?? 0) + 1);
        continue;
      }
      checked += 1;
      const got = analysisView(entry, names);
      const want = analysisView(parsed, names);
      if (JSON.stringify(got) !== JSON.stringify(want) || !Object.is(got.time, want.time)) {
        expect({ line: buf.toString('utf8', start, Math.min(end, start + 300)), got }).toEqual({ line: buf.toString('utf8', start, Math.min(end, start + 300)), got: want });
      }
    }
    expect(checked).toBeGreaterThan(ranges.length * 0.9);
    // Only lines of other kinds, and crank-starts of create-vat messages, are left to JSON.parse.
    for (const [type, count] of declined) {
      if (type === 'crank-start') {
        const creates = ranges.filter(([s, e]) => buf.toString('latin1', s, e).includes('"message":{"type":"create-vat"')).length;
        expect(count).toBe(creates);
      } else {
        expect(READ_KINDS).not.toContain(type);
      }
    }
  });
});

/** A real line of each kind the reader reads, from a-xs-3 (which has computrons). */
function sampleLines(): Map<string, string> {
  const buf = readSlog('a-xs-3');
  const samples = new Map<string, string>();
  for (const [start, end] of lineRanges(buf)) {
    const text = buf.toString('utf8', start, end);
    const type = (JSON.parse(text) as SlogEntry).type;
    const key = type === 'deliver-result' && text.includes('"compute"') ? 'deliver-result-xs' : type === 'deliver' && text.includes('"kd":["message"') ? 'deliver-message' : type;
    if (READ_KINDS.includes(type) && !samples.has(key)) samples.set(key, text);
  }
  return samples;
}

describe('lines not in the usual shape are left to JSON.parse', () => {
  const samples = sampleLines();
  const read = (text: string, names = true): SlogEntry | undefined => {
    const buf = Buffer.from(text, 'utf8');
    return analysisLineReader({ names })(buf, 0, buf.length);
  };

  it('has a sample of each kind', () => {
    expect([...samples.keys()].sort()).toEqual(
      ['clist', 'crank-finish', 'crank-start', 'create-vat', 'deliver', 'deliver-message', 'deliver-result', 'deliver-result-xs', 'syscall', 'syscall-result'].sort(),
    );
  });

  for (const kind of ['clist', 'crank-finish', 'crank-start', 'deliver', 'deliver-message', 'deliver-result', 'deliver-result-xs', 'syscall', 'syscall-result', 'create-vat']) {
    it(`${kind}: read as it is; not with keys in another order, spaces, a cut, an exponent, a bad end`, () => {
      const text = samples.get(kind) as string;
      expect(read(text)).toBeDefined();
      const entry = JSON.parse(text) as Record<string, unknown>;
      // Keys in another order (type first still).
      const { type, time, ...rest } = entry;
      const reordered = JSON.stringify({ type, ...Object.fromEntries(Object.entries(rest).reverse()), time });
      expect(read(reordered)).toBeUndefined();
      // A space after the first colon, or before the end.
      expect(read(text.replace('":', '": '))).toBeUndefined();
      expect(read(`${text.slice(0, -1)} }`)).toBeUndefined();
      // Cut short anywhere (the reader never reads past the line's end).
      for (let cut = 1; cut < text.length; cut += Math.max(1, Math.floor(text.length / 97))) {
        expect(read(text.slice(0, cut)), `cut at ${cut}`).toBeUndefined();
      }
      // The time as JSON.parse reads it but the reader does not: an exponent; and a bad number.
      const timeText = /,"time":([^,]+),/.exec(text)?.[1] as string;
      expect(read(text.replace(`,"time":${timeText},`, `,"time":${Number(timeText).toExponential()},`))).toBeUndefined();
      expect(read(text.replace(`,"time":${timeText},`, `,"time":0${timeText},`))).toBeUndefined();
      expect(read(text.replace(/,"monotime":[^,}]+/, ',"monotime":1.2.3'))).toBeUndefined();
      expect(read(text.replace(/,"monotime":([^,}]+)/, ',"monotime":$1.'))).toBeUndefined();
      // Another kind's end (with or without "seconds").
      const seconds = text.includes(',"seconds":');
      expect(read(seconds ? text.replace(/,"seconds":[^,}]+\}$/, '}') : text.replace(/\}$/, ',"seconds":0.5}'))).toBeUndefined();
    });
  }

  it('a vat ID or syscall name with an escape is left to JSON.parse', () => {
    const syscall = samples.get('syscall') as string;
    expect(read(syscall.replace(/"vatID":"v(\d+)"/, '"vatID":"\\u0076$1"'))).toBeUndefined();
    expect(read(syscall.replace(/"ksc":\["([a-zA-Z]+)"/, '"ksc":["\\u0061$1"'))).toBeUndefined();
    // Without names the syscall's name is not read, so its form does not matter.
    expect(read(syscall.replace(/"ksc":\["([a-zA-Z]+)"/, '"ksc":["\\u0061$1"'), false)).toBeDefined();
  });

  it('a create-vat message is parsed whole (it names a vat); a crank-start with the message vat later is not read', () => {
    const start = JSON.parse(samples.get('crank-start') as string) as CrankStartEntry;
    const create = { ...start, message: { type: 'create-vat', vatID: 'v9', dynamicOptions: { name: 'carol' } } };
    expect(read(JSON.stringify(create))).toBeUndefined();
    const late = { ...start, message: { type: 'notify', kpid: 'kp1', vatID: 'v9' } };
    expect(read(JSON.stringify(late))?.message).toEqual({ type: 'notify' });
  });

  it('computrons: the last "compute" of dr[2], a number; none when dr[2] is null or has none', () => {
    const xs = JSON.parse(samples.get('deliver-result-xs') as string) as DeliverResultEntry;
    const withUsage = (usage: unknown): string => JSON.stringify({ ...xs, dr: ['ok', null, usage] });
    const computrons = (text: string): unknown => (read(text) as DeliverResultEntry | undefined)?.dr?.[2]?.compute;
    expect(computrons(withUsage({ meterType: 'x', compute: 12, allocate: 3 }))).toBe(12);
    expect(computrons(withUsage({ compute: 12, compute2: 5 }))).toBe(12);
    expect(computrons(JSON.stringify({ ...xs, dr: ['ok', null, { compute: 1 }] }).replace('"compute":1', '"compute":1,"compute":7'))).toBe(7);
    expect(computrons(JSON.stringify({ ...xs, dr: ['ok', null, { compute: 1 }] }).replace('"compute":1', '"compute":1,"compute":"x"'))).toBeUndefined();
    expect(computrons(withUsage({ compute: 1.5e3 }))).toBe(1500);
    expect(computrons(withUsage(null))).toBeUndefined();
    expect(computrons(withUsage({}))).toBeUndefined();
    expect(computrons(withUsage(7))).toBeUndefined();
    expect(read(withUsage({ compute: 12 }))).toBeDefined();
    // A fourth element is not the usual shape: parsed whole.
    expect(read(JSON.stringify({ ...xs, dr: ['ok', null, { compute: 1 }, 0] }))).toBeUndefined();
  });
});

describe('numbers, as JSON.parse reads them', () => {
  const texts = [
    '0', '-0', '7', '-7', '1.5', '0.1', '0.3', '123456789012345', '1234567890123456', '9007199254740993', '123456789012345678901',
    '1795308057.680686', '1795308057.68088', '12.078444349', '12.077260517000001', '0.00015632000000005065', '0.000030939999998736313',
    '1e5', '1E-7', '-2.5e+300', '1.7976931348623157e308', '1e400', '5e-324', '2.2250738585072011e-308', '0.1234567890123456789012345',
    '4.35', '1.005', '99999999999999999999.5',
  ];
  for (let i = 0; i < 300; i += 1) {
    const digits = Array.from({ length: 1 + (i % 19) }, (_, k) => String((i * 7 + k * 13) % 10)).join('');
    texts.push(`${(i % 3) + 1}${digits}`, `${i % 10}.${digits}`, `-${(i % 9) + 1}.${digits}`, `${(i % 9) + 1}${digits.slice(0, 9)}.${digits}`);
  }

  it('ByteScanner.num() reads every JSON number exactly', () => {
    const sc = new ByteScanner();
    for (const text of texts) {
      const buf = Buffer.from(`${text},`);
      sc.reset(buf, 0, buf.length);
      expect(Object.is(sc.num(), JSON.parse(text)), text).toBe(true);
      expect(sc.pos).toBe(text.length);
    }
  });

  it('timeTail() reads a plain time exactly, and no other form', () => {
    const sc = new ByteScanner();
    for (const text of texts) {
      for (const seconds of [false, true]) {
        const line = `{"type":"x","time":${text},"monotime":12.5${seconds ? ',"seconds":0.25' : ''}}`;
        const buf = Buffer.from(line);
        sc.reset(buf, 0, buf.length);
        const time = sc.timeTail(0, seconds);
        if (/[eE]/.test(text)) expect(time, text).toBeNaN();
        else expect(Object.is(time, JSON.parse(text)), text).toBe(true);
        if (!Number.isNaN(time)) expect(line.slice(sc.tailStart)).toMatch(/^,"time":/);
        // The other kind of end is not this one.
        sc.reset(buf, 0, buf.length);
        expect(sc.timeTail(0, !seconds)).toBeNaN();
      }
    }
  });

  it('not numbers: NaN from num(), NaN from timeTail()', () => {
    const sc = new ByteScanner();
    for (const text of ['', '-', '01', '-01', '1.', '.5', '+1', '--1', '1.2.3', 'e5', '1e', '1e+', '0x10', 'NaN', 'Infinity', '١']) {
      const buf = Buffer.from(`${text},`);
      sc.reset(buf, 0, buf.length);
      const value = sc.num();
      if (!Number.isNaN(value)) {
        // A number's valid start (JSON.parse would then choke on what follows).
        expect(sc.pos).toBeLessThan(text.length);
      }
      const line = Buffer.from(`{"type":"x","time":${text},"monotime":1}`);
      sc.reset(line, 0, line.length);
      expect(sc.timeTail(0, false), text).toBeNaN();
      expect(() => JSON.parse(`{"t":${text}}`)).toThrow();
    }
  });
});

describe('the small entries', () => {
  it('share arrays between equal names (nothing changes an entry)', () => {
    const a = ENTRIES.syscall('v1', 'send', 1) as SyscallEntry;
    const b = ENTRIES.syscall('v2', 'send', 2) as SyscallEntry;
    expect(a.ksc).toBe(b.ksc);
    expect(a.ksc).toEqual(['send']);
  });
});
