import { describe, expect, it } from 'vitest';
import { CRANK_ENTRY_TYPES, isCrankEntry, isCrankEntryType } from './entry-types.js';

describe('isCrankEntryType', () => {
  it('is true for exactly the crank entry types', () => {
    for (const type of CRANK_ENTRY_TYPES) expect(isCrankEntryType(type)).toBe(true);
    // Types of other entries, and near misses of crank ones.
    for (const type of ['kernel-init-start', 'create-vat', 'console', 'start-replay', 'deliver-results', 'sys', 'Syscall', 'clist ', '']) {
      expect(isCrankEntryType(type)).toBe(false);
    }
    // A string built at run time (not the literal's own string) compares the same.
    expect(isCrankEntryType(['syscall', 'result'].join('-'))).toBe(true);
    expect(isCrankEntry(JSON.parse('{"type":"deliver-result"}'))).toBe(true);
    expect(isCrankEntry(JSON.parse('{"type":"cosmic-swingset-end-block-start"}'))).toBe(false);
  });
});
