/**
 * Which entries are crank entries: the seven types a crank is made of
 * (SLOG-FORMAT.md, docs/architecture.md), named here as the spec names
 * them, not taken from the module's own list; and every type the shared
 * slogs hold (kernel, vat, chain and console entries besides) told apart
 * as the spec says.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CRANK_ENTRY_TYPES, isCrankEntry, isCrankEntryType } from '../src/scan/entry-types.js';
import { ROOT, SLOG_NAMES, slogPath } from './helpers.js';
import { slogEntries } from './slog-facts.js';

/** The crank entry types, as the spec names them. */
const SEVEN = ['crank-start', 'crank-finish', 'deliver', 'deliver-result', 'syscall', 'syscall-result', 'clist'];

const REAL = join(ROOT, '..', 'shared', 'slogs', 'real');

/** Every entry type in the shared slogs (contextual lines' types are their body's). */
function typesInSlogs(): Set<string> {
  const files = [...SLOG_NAMES.map(slogPath), ...readdirSync(REAL).filter((n) => /\.(slog|jsonl)$/.test(n)).map((n) => join(REAL, n))];
  const types = new Set<string>();
  for (const file of files) for (const e of slogEntries(file)) types.add(typeof e.type === 'string' ? e.type : (e.body as { type: string }).type);
  return types;
}

describe('crank entry types', () => {
  it('are the seven of the spec', () => {
    expect([...CRANK_ENTRY_TYPES].sort()).toEqual([...SEVEN].sort());
  });

  it('isCrankEntryType is true for exactly those of every type the shared slogs hold', () => {
    const types = typesInSlogs();
    // The slogs hold all seven, and many others.
    for (const type of SEVEN) expect(types.has(type), type).toBe(true);
    expect(types.size).toBeGreaterThan(30);
    for (const type of types) expect(isCrankEntryType(type), type).toBe(SEVEN.includes(type));
  });

  it('is false for near misses, and true for a string built at run time', () => {
    for (const type of ['deliver-results', 'sys', 'Syscall', 'clist ', 'crank', '']) expect(isCrankEntryType(type), JSON.stringify(type)).toBe(false);
    expect(isCrankEntryType(['syscall', 'result'].join('-'))).toBe(true);
    expect(isCrankEntry(JSON.parse('{"type":"deliver-result"}'))).toBe(true);
    expect(isCrankEntry(JSON.parse('{"type":"cosmic-swingset-end-block-start"}'))).toBe(false);
  });
});
