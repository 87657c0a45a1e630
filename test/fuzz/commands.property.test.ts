/**
 * Every command on damaged windows of real slogs (a-local-3, chain-A):
 * exit 0, 1 or 2, at most one stderr line per bad line, no stack trace, no
 * internal error (commands-oracle.ts), in process with a fixed seed; and
 * through bin/slogulate for one of them. `npm run fuzz` runs many more.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers.js';
import { badLineNumbers, COMMANDS as COMMAND_LINES, commandProblem, commandSlog, commandSlogBytes } from './commands-oracle.js';
import { COMMANDS, expectProperty, scratchDir } from './properties.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SEED = 29014;

describe('the oracle', () => {
  it('counts bad lines with JSON.parse: not JSON, not an object, no type (a contextual line has its body\'s)', () => {
    const lines = ['{"type":"a"}', 'x', '', '[1]', '{"no":"type"}', '{"body":{"type":"b"},"time":1}', '{"body":{"type":"b"},"type":7}', '  ', '{"type":"c"}\r', '{"type":'];
    expect([...badLineNumbers(Buffer.from(lines.join('\n')))]).toEqual([2, 4, 5, 7, 10]);
  });

  it('tells a stack trace, an internal error, two lines for one, a line that is not bad, and too many others', () => {
    const ok = { status: 0, stdout: '', stderr: 'slogulate: f.slog:2: not JSON: x\n' };
    expect(commandProblem(ok, 'f.slog', new Set([2]))).toBeUndefined();
    expect(commandProblem({ ...ok, status: 3 }, 'f.slog', new Set([2]))).toMatch(/exit status 3/);
    expect(commandProblem({ ...ok, stderr: 'Error: x\n    at f (/a/b.js:1:2)\n' }, 'f.slog', new Set())).toMatch(/stack trace/);
    expect(commandProblem({ ...ok, stderr: 'slogulate: internal error: boom (please report it)\n' }, 'f.slog', new Set())).toMatch(/internal error/);
    expect(commandProblem({ ...ok, stderr: ok.stderr + ok.stderr }, 'f.slog', new Set([2]))).toMatch(/2 stderr lines for line 2/);
    expect(commandProblem(ok, 'f.slog', new Set([3]))).toMatch(/line 2 reported/);
    expect(commandProblem({ ...ok, stderr: 'a\nb\nc\n' }, 'f.slog', new Set())).toMatch(/3 stderr lines/);
  });
});

describe('every command on damaged real slogs (fixed seed)', () => {
  it(COMMANDS.what, async () => {
    await expectProperty(COMMANDS, SEED, 6);
  });

  it('through bin/slogulate: the render, stats and export of one', async () => {
    const [s] = fc.sample(commandSlog.filter((x) => x.edits.length >= 3), { seed: SEED, numRuns: 1 });
    const { damaged, base } = commandSlogBytes(s!);
    const dir = scratchDir();
    const slog = join(dir, 'spawned.slog');
    writeFileSync(slog, damaged);
    writeFileSync(join(dir, 'spawned-base.slog'), base);
    const bad = badLineNumbers(damaged);
    for (const c of COMMAND_LINES.filter((x) => ['render', 'stats', 'export --format csv'].includes(x.name))) {
      const r = await runCli(c.args(slog, join(dir, 'spawned-base.slog'), dir));
      expect(commandProblem(r, slog, bad), `slogulate ${c.name}`).toBeUndefined();
    }
  });
});
