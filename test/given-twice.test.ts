/**
 * The same slog file given twice (issue 29, item 11): `top a.slog a.slog`
 * counted the second copy as a restart of the first. It is a usage error
 * naming the file, for every command that reads slogs as one, also through a
 * symlink or as a file of a folder also given.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { slogPath } from './helpers.js';
import { runMain } from './run-main.js';

const dir = mkdtempSync(join(tmpdir(), 'slogulate-twice-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const slog = slogPath('a-local-3');
const link = join(dir, 'link.slog');
symlinkSync(slog, link);
const folder = join(dir, 'folder');
mkdirSync(folder);
copyFileSync(slog, join(folder, 'a.slog'));

it.each([
  ['top a a', ['top', slog, slog], slog, slog],
  ['render a a', [slog, slog], slog, slog],
  ['stats a link-to-a', ['stats', slog, link], link, slog],
  ['blocks folder folder/a', ['blocks', folder, join(folder, 'a.slog')], join(folder, 'a.slog'), join(folder, 'a.slog')],
])('%s: exit 2, one line naming the file given twice', async (_what, args, second, first) => {
  const r = await runMain(args);
  expect(r).toMatchObject({ status: 2, stdout: '' });
  expect(r.stderr).toBe(`slogulate: ${second}: given twice (the same file as ${first}): a slog read twice would count its cranks again, as after a restart\n`);
});

it('compare a a: two sides, each read once: no error', async () => {
  const r = await runMain(['compare', slog, slog]);
  expect(r.status).toBe(0);
});
