/**
 * A number option or range beyond 2^53 - 1 (issue 29, item 11): JavaScript
 * cannot hold it exactly (`--cranks 99999999999999999999` selected crank
 * 100000000000000000000): a usage error naming it, exit 2, one line.
 */
import { expect, it } from 'vitest';
import { slogPath } from './helpers.js';
import { runMain } from './run-main.js';

const slog = slogPath('a-xs-3');
const HUGE = '99999999999999999999';
/** 2^53 - 1, the largest whole number a JavaScript number holds exactly (with its neighbours), and 2^53, the first beyond it: by BigInt. */
const SAFE = (2n ** 53n - 1n).toString();
const UNSAFE = (2n ** 53n).toString();

it.each([
  ['--cranks N', ['top', '--cranks', HUGE, slog], HUGE],
  ['--cranks N-M', ['stats', '--cranks', `1-${HUGE}`, slog], HUGE],
  ['--cranks 2^53', [ '--cranks', UNSAFE, slog], UNSAFE],
  ['--blocks N-', ['blocks', '--blocks', `${HUGE}-`, slog], HUGE],
  ['top -n', ['top', '-n', HUGE, slog], HUGE],
  ['--bigwidth', ['--bigwidth', HUGE, slog], HUGE],
])('%s: exit 2, one line naming the number', async (_what, args, number) => {
  const r = await runMain(args);
  expect(r.status).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr.split('\n')).toHaveLength(2);
  expect(r.stderr).toContain(number);
  expect(r.stderr).toContain('too large');
});

it('2^53 - 1 is a number like any other', async () => {
  const r = await runMain(['top', '--cranks', SAFE, slog]);
  expect(r.status).toBe(0);
  expect(r.stderr).toBe(`slogulate: ${slog}: no cranks match cranks ${SAFE}\n`);
});
