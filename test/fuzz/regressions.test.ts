/**
 * Every input a fuzzed property ever failed on (test/fuzz/regressions/,
 * regressions.ts), replayed against its property's check: each must pass
 * now. A case's note says what was wrong.
 */
import { describe, expect, it } from 'vitest';
import { checkCommandsOn } from './commands-oracle.js';
import { checkGzipCuts } from './gzip-cut.js';
import { hugeProblem, memoryBound, runHuge, type HugeKind } from './huge-lines.js';
import { scratchDir } from './properties.js';
import { allReaders, checkPaths, checkStreaming } from './reading-oracle.js';
import { caseBytes, regressionCases, type RegressionCase } from './regressions.js';

async function replay(c: RegressionCase): Promise<string | undefined> {
  if ('huge' in c.input) {
    const { kind, size, args, bigLineBytes } = c.input.huge;
    const env: Record<string, string> = bigLineBytes === undefined ? {} : { SLOGULATE_BIG_LINE_BYTES: String(bigLineBytes) };
    const r = await runHuge(kind as HugeKind, size, args, scratchDir(), env);
    return hugeProblem(r, memoryBound(kind as HugeKind, args));
  }
  const input = c.input;
  const bytes = caseBytes(input);
  switch (c.check) {
    case 'paths':
      return checkPaths(bytes);
    case 'streaming':
      return checkStreaming(bytes, input.chunks ?? [], input.bigLineBytes ?? Infinity, allReaders());
    case 'commands':
      return checkCommandsOn(bytes, input.base ? caseBytes(input.base) : bytes, scratchDir());
    case 'gzip-cut':
      return checkGzipCuts(bytes);
    default:
      return `a ${c.check} case holds bytes`;
  }
}

const cases = regressionCases();

describe('regression cases (test/fuzz/regressions/)', () => {
  it('there are cases, each with a one-line note and a known check', () => {
    expect(cases.length).toBeGreaterThan(0);
    for (const { file, case: c } of cases) {
      expect(c.note, file).toMatch(/^[^\n]{10,400}$/);
      expect(['paths', 'streaming', 'commands', 'gzip-cut', 'huge'], file).toContain(c.check);
      expect('huge' in c.input, file).toBe(c.check === 'huge');
    }
  });

  it.each(cases.map(({ file, case: c }) => [file, c] as const))('%s', async (_file, c) => {
    expect(await replay(c), c.note).toBeUndefined();
  });
});
