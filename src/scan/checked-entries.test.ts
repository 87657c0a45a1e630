/**
 * Checked entries (SLOGULATE_CHECK_READS=1, which the suite sets): a read of
 * a field the consumer did not ask for throws, on either path (shown for a
 * syscall and a clist entry); fields asked for read as usual.
 */
import { describe, expect, it } from 'vitest';
import { MODEL_READS } from '../model/reads.js';
import { defaultRenderOptions } from '../render/options.js';
import { renderReads } from '../render/reads.js';
import { splitLines } from '../source/lines.js';
import { UnreadFieldError } from './checked-entries.js';
import type { SlogEntry } from './entry-types.js';
import { lineReader } from './line-reader.js';
import { BadLine } from './plain-reader.js';
import { mergeReads, type Reads } from './reads.js';

const SYSCALL =
  '{"type":"syscall","crankNum":7,"vatID":"v1","deliveryNum":1,"syscallNum":0,"replay":false,"syscall":"send","ksc":["send","ko1",{"methargs":{"body":"#[\\"go\\",[]]","slots":[]},"result":"kp1"}],"vsc":["send","o-1",{"methargs":{"body":"#[\\"go\\",[]]","slots":[]},"result":"p+1"}],"time":1795404511.715977,"monotime":43.3}';
const VATSTORE =
  '{"type":"syscall","crankNum":7,"vatID":"v1","deliveryNum":1,"syscallNum":1,"replay":false,"syscall":"vatstoreGet","ksc":["vatstoreGet","v1","idCounters"],"vsc":["vatstoreGet","idCounters"],"time":1795404511.716,"monotime":43.31}';
const CLIST = '{"type":"clist","crankNum":7,"mode":"import","vatID":"v1","kobj":"ko22","vobj":"o-50","time":1795404511.717,"monotime":43.32}';

function entries(reads: Reads, fast: boolean, lines: string[]): Array<Record<string, unknown>> {
  const reader = lineReader(mergeReads(MODEL_READS, reads), { fast, checkReads: true });
  const batch = splitLines(Buffer.from(lines.join('\n')));
  return lines.map((_, i) => {
    const entry = reader.read(batch, i) as SlogEntry | BadLine | undefined;
    if (entry === undefined || entry instanceof BadLine) throw new Error(`line ${i + 1} not read`);
    return entry as unknown as Record<string, unknown>;
  });
}

describe.each([true, false])('fast path %s', (fast) => {
  it('the model alone: its fields read, the others throw', () => {
    const [syscall, clist] = entries(MODEL_READS, fast, [SYSCALL, CLIST]);
    expect(syscall?.type).toBe('syscall');
    expect(syscall?.crankNum).toBe(7);
    expect(syscall?.vatID).toBe('v1');
    expect(() => syscall?.ksc).toThrow(UnreadFieldError);
    expect(() => syscall?.name).toThrow(/syscall\.name read, but not in the consumer's reads/);
    expect(clist?.vatID).toBe('v1');
    expect(() => clist?.kobj).toThrow(UnreadFieldError);
  });

  it('reads that depend on the syscall name (the render with --novatstore)', () => {
    const [send, vatstore] = entries(renderReads({ ...defaultRenderOptions(), novatstore: true }), fast, [SYSCALL, VATSTORE]);
    expect((send?.ksc as unknown[])[0]).toBe('send');
    expect(vatstore?.name).toBe('vatstoreGet');
    expect(() => vatstore?.ksc).toThrow(UnreadFieldError);
  });
});
