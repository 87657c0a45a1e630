import { describe, expect, it } from 'vitest';
import type { NormalEntry } from './crank-digest.js';
import { fieldWords, firstDifference, firstPath, onlyComputrons, valueAt } from './first-difference.js';

const entry = (label: string, value: Record<string, unknown>): NormalEntry => ({ label, json: JSON.stringify(value) });

const set = (value: string): NormalEntry => entry('syscall 3 vatstoreSet', { type: 'syscall', ksc: ['vatstoreSet', 'v6', 'k', value], vsc: ['vatstoreSet', 'k', value] });
const start = entry('crank-start', { type: 'crank-start', crankNum: 5 });

describe('firstPath and valueAt', () => {
  it('the first differing path, depth first, and the value there', () => {
    expect(firstPath({ a: 1, b: [1, { c: 2 }] }, { a: 1, b: [1, { c: 3 }] })).toBe('b[1].c');
    expect(firstPath({ a: 1 }, { a: 1, z: 2 })).toBe('z');
    expect(firstPath([1, 2], [1, 2, 3])).toBe('[2]');
    expect(firstPath({ a: [1] }, { a: [1] })).toBeUndefined();
    expect(firstPath(1, '1')).toBe('');
    expect(valueAt({ b: [1, { c: 3 }] }, 'b[1].c')).toBe(3);
    expect(valueAt({ b: 1 }, 'b[0].c')).toBeUndefined();
  });
});

describe('firstDifference', () => {
  it('a vatstoreSet value: the entry, the path, the field in words', () => {
    const d = firstDifference([start, set('7')], [start, set('8')]);
    expect(d).toMatchObject({ index: 1, path: 'ksc[3]', valueA: '"7"', valueB: '"8"', what: 'syscall 3 vatstoreSet value differs' });
  });

  it('another kind of entry there: said as such', () => {
    const deliver = entry('deliver', { type: 'deliver', kd: ['bringOutYourDead'] });
    expect(firstDifference([start, set('7')], [start, deliver])?.what).toBe('entry 1: syscall 3 vatstoreSet on A, deliver on B');
  });

  it('one side has more entries', () => {
    expect(firstDifference([start], [start, set('1'), set('2')])?.what).toBe('only B has syscall 3 vatstoreSet (and 1 more entries)');
    expect(firstDifference([start, set('1')], [start])?.what).toBe('only A has syscall 3 vatstoreSet (and 0 more entries)');
  });

  it('the same: undefined', () => {
    expect(firstDifference([start, set('7')], [start, set('7')])).toBeUndefined();
    expect(firstDifference([], [])).toBeUndefined();
  });
});

describe('fieldWords', () => {
  it('names positional fields of a syscall and parts of a delivery result', () => {
    expect(fieldWords({ ksc: ['send', 'ko1', {}] }, 'ksc[2].methargs.body')).toBe('message');
    expect(fieldWords({ ksc: ['resolve', 'v1', []] }, 'ksc[2][0][2]')).toBe('resolutions');
    expect(fieldWords({ ksr: ['ok', 1] }, 'ksr[1]')).toBe('result');
    expect(fieldWords({ dr: ['ok', null, {}] }, 'dr[2].compute')).toBe('computrons');
    expect(fieldWords({ dr: ['error', 'x', {}] }, 'dr[0]')).toBe('delivery status');
    expect(fieldWords({ dr: ['ok', null, {}] }, 'dr[2].currentHeapCount')).toBe("worker's currentHeapCount");
    expect(fieldWords({ message: {} }, 'message.vatParameters.body')).toBe('message.vatParameters.body');
  });
});

describe('onlyComputrons', () => {
  const result = (compute: number, heap = 1): NormalEntry => entry('deliver-result', { type: 'deliver-result', dr: ['ok', null, { compute, currentHeapCount: heap }] });
  it('true when the computrons are the only difference, false when anything else differs too', () => {
    const a = [start, result(10)];
    const d = firstDifference(a, [start, result(11)]);
    expect(d && onlyComputrons(a, [start, result(11)], d)).toBe(true);
    const b = [start, result(11, 2)];
    const e = firstDifference(a, b);
    expect(e && onlyComputrons(a, b, e)).toBe(false);
    const c = [start, result(11), set('x')];
    const f = firstDifference([...a, set('y')], c);
    expect(f && onlyComputrons([...a, set('y')], c, f)).toBe(false);
  });
});
