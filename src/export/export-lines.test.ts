/**
 * export's line reader (export-lines.ts) against JSON.parse: on every line
 * of the shared slogs, the cells the tables read from the reader's entry
 * are the cells they read from JSON.parse's; lines in other shapes (cut,
 * spaced, escaped) are left to JSON.parse; and the reader does read the
 * usual lines itself (else it would only be slow).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SyscallPair } from '../model/crank.js';
import { syscallName } from '../model/crank.js';
import type { DeliverEntry, DeliverResultEntry, SlogEntry, SyscallEntry, SyscallResultEntry } from '../model/types.js';
import { exportLineReader } from './export-lines.js';
import {
  computronsOf,
  deliveryKindOf,
  deliveryMethodOf,
  deliveryResultOf,
  deliveryStatusOf,
  deliveryTargetOf,
  syscallMethodOf,
  syscallStatusOf,
  syscallTargetOf,
} from './fields.js';

const ROOT = join(import.meta.dirname, '..', '..');
const SHARED = join(ROOT, '..', 'shared', 'slogs');

function slogFiles(): string[] {
  const fixtures = readdirSync(join(ROOT, 'fixtures', 'slogs')).map((f) => join(ROOT, 'fixtures', 'slogs', f));
  const real = readdirSync(join(SHARED, 'real'))
    .filter((f) => f.endsWith('.slog'))
    .map((f) => join(SHARED, 'real', f));
  return [...fixtures, ...real];
}

/** What the tables read of an entry. */
function cells(entry: SlogEntry): Record<string, unknown> {
  const base = { type: entry.type, time: entry.time, crankNum: entry.crankNum, vatID: entry.vatID };
  switch (entry.type) {
    case 'syscall': {
      const pair: SyscallPair = { kind: 'syscall', call: entry as SyscallEntry, seconds: 0 };
      const type = syscallName(pair);
      return {
        ...base,
        name: type,
        target: syscallTargetOf(pair, type),
        method: syscallMethodOf(pair, type),
        deliveryNum: entry.deliveryNum,
        syscallNum: entry.syscallNum,
        replay: entry.replay === true,
      };
    }
    case 'syscall-result': {
      const pair: SyscallPair = { kind: 'syscall', call: { type: 'syscall' }, result: entry as SyscallResultEntry, seconds: 0 };
      return { ...base, status: syscallStatusOf(pair) };
    }
    case 'deliver': {
      const d = entry as DeliverEntry;
      return {
        ...base,
        kind: deliveryKindOf(d),
        method: deliveryMethodOf(d),
        target: deliveryTargetOf(d),
        result: deliveryResultOf(d),
        deliveryNum: d.deliveryNum,
        replay: d.replay === true,
      };
    }
    case 'deliver-result': {
      const r = entry as DeliverResultEntry;
      return { ...base, status: deliveryStatusOf(r), computrons: computronsOf(r) };
    }
    default:
      // Read by the analyses' reader (its own test checks what it reads).
      return { type: entry.type, time: entry.time };
  }
}

const OLD_SHAPES = ['y2022-create-vat.slog', 'lone-deliver-result.slog'];

const READ_HERE = new Set(['syscall', 'syscall-result', 'deliver', 'deliver-result']);

describe('export line reader', () => {
  for (const file of slogFiles()) {
    it(`reads what JSON.parse reads: ${file.slice(ROOT.length - 8)}`, () => {
      const buf = readFileSync(file);
      const read = exportLineReader();
      let usual = 0;
      let fast = 0;
      let start = 0;
      while (start < buf.length) {
        let end = buf.indexOf(10, start);
        if (end < 0) end = buf.length;
        const text = buf.toString('utf8', start, end);
        let parsed: SlogEntry | undefined;
        try {
          parsed = JSON.parse(text) as SlogEntry;
        } catch {
          parsed = undefined;
        }
        const entry = read(buf, start, end);
        if (parsed === undefined) {
          expect(entry, text.slice(0, 200)).toBeUndefined();
        } else if (entry !== undefined) {
          expect(cells(entry), text.slice(0, 300)).toEqual(cells(parsed));
          if (READ_HERE.has(parsed.type)) fast += 1;
        }
        if (parsed && READ_HERE.has(parsed.type) && parsed.replay !== true && 'crankNum' in parsed) usual += 1;
        start = end + 1;
      }
      // Every usual (live, kernel-space) line of today's slogs is read from its bytes;
      // the 2021 and 2022 shapes (other fields, other order) go to JSON.parse.
      if (OLD_SHAPES.some((name) => file.endsWith(name))) expect(fast).toBe(0);
      else expect(fast).toBe(usual);
    });
  }

  it('leaves cut, spaced and escaped lines to JSON.parse', () => {
    const buf = readFileSync(join(ROOT, 'fixtures', 'slogs', 'a-xs-3.slog'));
    const lines = buf.toString('utf8').split('\n');
    const read = exportLineReader();
    let tried = 0;
    for (const type of READ_HERE) {
      const samples = lines.filter((l) => l.startsWith(`{"type":"${type}",`)).slice(0, 40);
      expect(samples.length).toBeGreaterThan(0);
      for (const line of samples) {
        const variants = [
          line.slice(0, Math.floor(line.length / 2)),
          line.slice(0, -1),
          line.replace(',"vatID":', ', "vatID":'),
          line.replace('"time":', '"time" :'),
        ];
        for (const variant of variants) {
          const bytes = Buffer.from(variant);
          expect(read(bytes, 0, bytes.length), variant.slice(0, 200)).toBeUndefined();
          tried += 1;
        }
        // An escape in a method name is left to JSON.parse, or read the same.
        const escaped = line.replace(/(\\"methargs\\":\{\\"body\\":\\"#\[\\\\")([a-z])/, '$1\\\\u0061$2');
        const bytes = Buffer.from(escaped);
        const entry = read(bytes, 0, bytes.length);
        if (entry !== undefined) expect(cells(entry)).toEqual(cells(JSON.parse(escaped) as SlogEntry));
      }
    }
    expect(tried).toBeGreaterThan(400);
  });
});
