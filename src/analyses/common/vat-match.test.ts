/**
 * VatMatching: vats are paired by a name both sides give one vat, by ID
 * otherwise; each vat's key is its ID unless its IDs differ.
 */
import { describe, expect, it } from 'vitest';
import { VatMatching, VatScopeError } from './vat-match.js';

const side = (entries: Array<[string, string | undefined]>): Map<string, string | undefined> => new Map(entries);

describe('VatMatching', () => {
  it('pairs vats created in another order by their names', () => {
    const m = new VatMatching(
      side([['v1', 'bootstrap'], ['v7', 'bob'], ['v8', 'erin']]),
      side([['v1', 'bootstrap'], ['v7', 'erin'], ['v8', 'bob']]),
    );
    expect(m.of('base', 'v7')).toEqual({ key: 'bob', name: 'bob', base: 'v7', head: 'v8', by: 'name' });
    expect(m.of('head', 'v7')).toEqual({ key: 'erin', name: 'erin', base: 'v8', head: 'v7', by: 'name' });
    expect(m.of('head', 'v1')).toEqual({ key: 'v1', name: 'bootstrap', base: 'v1', head: 'v1', by: 'name' });
    expect(m.all().map((v) => v.key)).toEqual(['v1', 'erin', 'bob']);
  });

  it('falls back to IDs for unnamed vats, names on one side only, and names two vats share', () => {
    const m = new VatMatching(
      side([['v2', undefined], ['v3', 'zcf'], ['v4', 'zcf'], ['v5', 'gone']]),
      side([['v2', 'vatAdmin'], ['v3', 'zcf'], ['v4', 'zcf'], ['v6', 'new']]),
    );
    expect(m.of('base', 'v2')).toEqual({ key: 'v2', name: 'vatAdmin', base: 'v2', head: 'v2', by: 'id' });
    expect(m.of('head', 'v4')).toEqual({ key: 'v4', name: 'zcf', base: 'v4', head: 'v4', by: 'id' });
    expect(m.of('base', 'v5')).toEqual({ key: 'v5', name: 'gone', base: 'v5', by: 'id' });
    expect(m.of('head', 'v6')).toEqual({ key: 'v6', name: 'new', head: 'v6', by: 'id' });
  });

  it('a base vat whose ID the head gave to a vat matched by name stands alone', () => {
    const m = new VatMatching(side([['v7', 'bob'], ['v9', 'carol']]), side([['v8', 'bob'], ['v9', 'dave'], ['v7', 'x']]));
    expect(m.of('base', 'v7')).toMatchObject({ key: 'bob', base: 'v7', head: 'v8' });
    // carol (v9) and dave (v9): each side names its v9, each another name: two vats, each keeping its name.
    expect(m.of('base', 'v9')).toEqual({ key: 'v9', name: 'carol', base: 'v9', by: 'id' });
    expect(m.of('head', 'v9')).toEqual({ key: 'v9', name: 'dave', head: 'v9', by: 'id' });
    expect(m.keyOf(m.of('base', 'v9'))).toBe('carol');
    expect(m.keyOf(m.of('head', 'v9'))).toBe('dave');
    expect(m.of('head', 'v7')).toEqual({ key: 'v7', name: 'x', head: 'v7', by: 'id' });
  });

  it('a vat= scope: a name or key finds the pair; an ID naming two different vats is an error', () => {
    const m = new VatMatching(side([['v7', 'bob'], ['v8', 'erin']]), side([['v7', 'erin'], ['v8', 'bob'], ['v9', 'new']]));
    expect(m.scoped('bob')).toMatchObject({ base: 'v7', head: 'v8' });
    expect(m.scoped('v9')).toMatchObject({ head: 'v9' });
    expect(m.scoped('nobody')).toBeUndefined();
    expect(() => m.scoped('v7')).toThrow(VatScopeError);
    expect(() => m.scoped('v7')).toThrow('vat=v7 is bob in the base and erin in the head (vats are matched by name); write vat=bob or vat=erin');
  });
});
