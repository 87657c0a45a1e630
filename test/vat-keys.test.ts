/**
 * VatMatching.keyOf and scoped: the word report rows and `--fail-on` use for
 * a vat is one vat's on both sides. A vat on one side only whose ID the other
 * side gives to another vat is keyed by its name (or `ID@side` when the name
 * is not its alone); an ID naming different vats on the two sides is refused.
 */
import { describe, expect, it } from 'vitest';
import { VatMatching, VatScopeError } from '../src/analyses/common/vat-match.js';

const side = (entries: Array<[string, string | undefined]>): Map<string, string | undefined> => new Map(entries);

describe('VatMatching.keyOf and scoped', () => {
  it('a one-sided vat whose ID is another vat on the other side is keyed by its name; the ID is refused', () => {
    // Base: v6 bob, v7 carol; head: v6 alice, v7 bob (bob matched by name, v6→v7).
    const m = new VatMatching(side([['v5', 'timer'], ['v6', 'bob'], ['v7', 'carol']]), side([['v5', 'timer'], ['v6', 'alice'], ['v7', 'bob']]));
    const alice = m.of('head', 'v6');
    const carol = m.of('base', 'v7');
    expect(m.keyOf(alice)).toBe('alice');
    expect(m.keyOf(carol)).toBe('carol');
    expect(m.keyOf(m.of('base', 'v6'))).toBe('bob');
    expect(m.keyOf(m.of('head', 'v5'))).toBe('v5');
    for (const match of m.all()) expect(m.scoped(m.keyOf(match))).toBe(match);
    expect(() => m.scoped('v6')).toThrow(VatScopeError);
    expect(() => m.scoped('v6')).toThrow('vat=v6 is bob in the base and alice in the head (vats are matched by name); write vat=bob or vat=alice');
    expect(() => m.scoped('v7')).toThrow('vat=v7 is carol in the base and bob in the head (vats are matched by name); write vat=carol or vat=bob');
    expect(m.scoped('v6@head')).toBe(alice);
    expect(m.scoped('v6@base')).toBe(m.of('base', 'v6'));
    expect(m.scoped('v9@head')).toBeUndefined();
  });

  it('such a vat whose name is not its alone (or that has none) is keyed by its ID and side', () => {
    // Head: two vats named alice (v6, v9), so alice is matched by ID; base v6 is bob.
    const m = new VatMatching(side([['v6', 'bob'], ['v8', 'alice']]), side([['v7', 'bob'], ['v6', 'alice'], ['v9', 'alice']]));
    expect(m.keyOf(m.of('head', 'v6'))).toBe('v6@head');
    expect(m.keyOf(m.of('base', 'v8'))).toBe('v8');
    expect(m.keyOf(m.of('head', 'v9'))).toBe('v9');
    for (const match of m.all()) expect(m.scoped(m.keyOf(match))).toBe(match);
    const unnamed = new VatMatching(side([['v6', 'bob']]), side([['v7', 'bob'], ['v6', undefined]]));
    expect(unnamed.keyOf(unnamed.of('head', 'v6'))).toBe('v6@head');
    expect(() => unnamed.scoped('v6')).toThrow('vat=v6 is bob in the base and an unnamed vat in the head (vats are matched by name); write vat=bob or vat=v6@head');
  });
});
