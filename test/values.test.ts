/**
 * Capdata rendering: smallcaps and legacy encodings print alike, `<BIG>` at
 * every depth, refs by annotation name.
 */
import { describe, expect, it } from 'vitest';
import { joinMapped } from '../src/render/format.js';
import { renderCapData, renderMethargs, type ValueContext } from '../src/render/values.js';
import { methodName as renderMethod } from '../src/scan/method-name.js';
import { legacy, sc } from './render-helpers.js';

const names = new Map([['ko5', 'wallet']]);
const ctx = (bigWidth = 200): ValueContext => ({
  bigWidth,
  pref: (ref) => (names.has(ref) ? `<${names.get(ref)}>` : `@${ref}`),
});

describe('smallcaps', () => {
  it.each([
    ['plain string', 'hello', '"hello"'],
    ['string with quotes', 'say "hi"', '"say \\"hi\\""'],
    ['escaped string', '!#not special', '"#not special"'],
    ['symbol', '%@@asyncIterator', '[@@asyncIterator]'],
    ['undefined', '#undefined', 'undefined'],
    ['NaN', '#NaN', 'NaN'],
    ['-Infinity', '#-Infinity', '-Infinity'],
    ['positive bigint', '+1000000', '1000000'],
    ['negative bigint', '-42', '-42'],
    ['number', 7, '7'],
    ['null', null, 'null'],
    ['boolean', true, 'true'],
  ])('%s', (_what, value, expected) => {
    expect(renderCapData(sc(value), ctx())).toBe(expected);
  });

  it('remotables and promises print as refs, named when annotated', () => {
    expect(renderCapData(sc(['$0.Alleged: wallet']), ctx())).toBe('[<missing slot 0>]');
    expect(renderCapData(sc(['$0.Alleged: wallet', '&1', '$2'], ['ko5', 'kp9', 'kd3']), ctx())).toBe(
      '[<wallet>, @kp9, @kd3]',
    );
  });

  it('records keep their key order, unquoted; arrays nest', () => {
    const value = { z: 1, a: ['x', { '#error': 'boom', name: 'Error' }] };
    expect(renderCapData(sc(value), ctx())).toBe('{z: 1, a: ["x", {#error: "boom", name: "Error"}]}');
  });
});

describe('legacy @qclass', () => {
  it.each([
    ['undefined', { '@qclass': 'undefined' }, 'undefined'],
    ['NaN', { '@qclass': 'NaN' }, 'NaN'],
    ['Infinity', { '@qclass': 'Infinity' }, 'Infinity'],
    ['bigint', { '@qclass': 'bigint', digits: '-12' }, '-12'],
    ['symbol', { '@qclass': 'symbol', name: 'foo' }, '[foo]'],
    ['asyncIterator', { '@qclass': '@@asyncIterator' }, '[Symbol.asyncIterator]'],
  ])('%s', (_what, value, expected) => {
    expect(renderCapData(legacy(value), ctx())).toBe(expected);
  });

  it('slots print as refs', () => {
    expect(renderCapData(legacy([{ '@qclass': 'slot', index: 1, iface: 'x' }], ['kp1', 'ko5']), ctx())).toBe('[<wallet>]');
  });

  it('errors print like their smallcaps twin', () => {
    const smallcaps = renderCapData(sc({ '#error': 'all done', errorId: 'e1', name: 'Error' }), ctx());
    const old = renderCapData(
      legacy({ '@qclass': 'error', errorId: 'e1', message: 'all done', name: 'Error' }),
      ctx(),
    );
    expect(old).toBe(smallcaps);
    expect(old).toBe('{#error: "all done", errorId: "e1", name: "Error"}');
  });

  it('legacy strings are not tag-decoded', () => {
    expect(renderCapData(legacy(['+5', '#undefined', '$0']), ctx())).toBe('["+5", "#undefined", "$0"]');
  });
});

describe('<BIG>', () => {
  const long = 'x'.repeat(50);
  it('replaces any value longer than bigWidth, at any depth', () => {
    expect(renderCapData(sc(long), ctx(40))).toBe('<BIG>');
    expect(renderCapData(sc({ a: [long], b: 1 }), ctx(40))).toBe('{a: [<BIG>], b: 1}');
    // the inner values are short, the whole is not
    expect(renderCapData(sc({ a: 'x'.repeat(20), b: 'y'.repeat(20) }), ctx(40))).toBe('<BIG>');
  });

  it('is exact at the boundary', () => {
    expect(renderCapData(sc('a'.repeat(38)), ctx(40))).toBe(`"${'a'.repeat(38)}"`); // 40 characters
    expect(renderCapData(sc('a'.repeat(39)), ctx(40))).toBe('<BIG>'); // 41 characters
  });

  it('applies to each message argument separately, not to the whole list', () => {
    const methargs = sc(['store', [long, 'short']]);
    expect(renderMethargs(methargs, ctx(40))).toEqual({ method: 'store', args: '<BIG>, "short"' });
  });
});

describe('methods', () => {
  it('bare names, symbols, function calls', () => {
    expect(renderMethargs(sc(['deposit', [10]]), ctx())).toEqual({ method: 'deposit', args: '10' });
    expect(renderMethargs(sc(['%foo', []]), ctx())).toEqual({ method: '[foo]', args: '' });
    expect(renderMethargs(sc(['#undefined', [1]]), ctx())).toEqual({ method: '<funcall>', args: '1' });
    expect(renderMethargs(legacy([{ '@qclass': 'undefined' }, [1]]), ctx())).toEqual({ method: '<funcall>', args: '1' });
    expect(renderMethargs(legacy([{ '@qclass': 'symbol', name: 'bar' }, []]), ctx()).method).toBe('[bar]');
    expect(renderMethod(undefined, true)).toBe('<funcall>');
  });

  it('garbage capdata does not throw', () => {
    expect(renderCapData({ body: '#{not json', slots: [] }, ctx())).toBe('<unintelligible value>');
    expect(renderMethargs({ body: '#[', slots: [] }, ctx()).args).toBe('<unintelligible message args>');
  });
});

describe('joinMapped (the render joins parsed arrays with a loop, not map: format.ts)', () => {
  it('is items.map(each).join(separator), with the index, over arrays of every element kind', () => {
    const arrays: unknown[][] = [[], [1], [1, 2, 3], [1.5, -0, 2], ['a', null, { b: 1 }], [[1], 'x', 2.5], JSON.parse('[1,"two",3.5,[4],{"five":5}]') as unknown[]];
    const each = (x: unknown, i: number): string => `${i}:${JSON.stringify(x)}`;
    for (const items of arrays) {
      for (const separator of [', ', '\n', '']) expect(joinMapped(items, each, separator)).toBe(items.map(each).join(separator));
    }
  });
});
