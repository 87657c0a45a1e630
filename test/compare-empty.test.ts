/**
 * `slogulate compare` never passes a broken run (issue 13): a side without
 * deliveries, or whose lines are mostly not slog entries, is an error (exit
 * 2, one line naming the side) unless --allow-empty.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { slogPath } from './helpers.js';
import { runMain } from './run-main.js';

const dir = mkdtempSync(join(tmpdir(), 'slogulate-compare-empty-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a side that is empty or not a slog is an error unless --allow-empty', () => {
  const good = slogPath('a-local-3');
  const empty = join(dir, 'empty.slog');
  writeFileSync(empty, '');
  const binary = join(dir, 'binary.slog');
  // Bytes of no text, in a few "lines".
  writeFileSync(binary, Buffer.from(Array.from({ length: 4000 }, (_, i) => (i % 997 === 996 ? 10 : (i * 7919) % 251))));
  const mostlyNot = join(dir, 'mostly-not.slog');
  const lines = readFileSync(good, 'utf8').split('\n');
  writeFileSync(mostlyNot, [...lines.slice(0, 300), ...Array.from({ length: 400 }, (_, i) => `benchmark log line ${i}`)].join('\n'));
  const fail = ['--fail-on', 'cranks:+0', '--fail-on', 'computrons:+5%'];

  it.each([
    ['an empty head', [good, empty], `head ${empty}: no deliveries: the slog is empty`],
    ['an empty base', [empty, good], `base ${empty}: no deliveries: the slog is empty`],
    ['sides with no deliveries in the selection', ['--cranks', '99999-', good, good], `base ${good}: no deliveries in cranks 99999-`],
    ['a head mostly not slog entries', [good, mostlyNot], `head ${mostlyNot}: 400 of 700 lines are not slog entries (not a slog?)`],
  ])('%s: status 2, one line saying which side and why', async (_what, args, why) => {
    const r = await runMain(['compare', ...fail, ...args]);
    expect(r).toMatchObject({ status: 2, stdout: '' });
    const last = r.stderr.trimEnd().split('\n').pop();
    expect(last).toBe(`slogulate: ${why}; --allow-empty compares it anyway`);
    if (!args.includes(mostlyNot)) expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('a binary head (no slog entry in it): status 2, one line saying the head is not a slog', async () => {
    const r = await runMain(['compare', ...fail, good, binary]);
    expect(r).toMatchObject({ status: 2, stdout: '' });
    const lines = readFileSync(binary).toString('latin1').split('\n').length;
    expect(r.stderr).toBe(`slogulate: head ${binary}: not a slog (none of its ${lines} lines is a slog entry)\n`);
  });

  it('--allow-empty compares them anyway, with a warning naming the side', async () => {
    const r = await runMain(['compare', '--allow-empty', '--fail-on', 'syscalls:+0', good, empty]);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe(`slogulate: head ${empty}: no deliveries: the slog is empty\n`);
    expect(r.stdout).toMatch(/^no threshold exceeded \(1 checked\)$/m);
  });

  it('--allow-empty: the text and markdown reports say which side was compared anyway, not only stderr', async () => {
    const [text, markdown, base] = await Promise.all([
      runMain(['compare', '--allow-empty', good, empty]),
      runMain(['compare', '--allow-empty', '--format', 'markdown', '--fail-on', 'syscalls:+0', good, empty]),
      runMain(['compare', '--allow-empty', '--format', 'markdown', '--cranks', '99999-', good, good]),
    ]);
    expect(text.status).toBe(0);
    // Under the head lines (base, head, vats), before the tables.
    const head = text.stdout.split('\n\n')[0]?.split('\n') ?? [];
    expect(head.slice(0, 2).map((l) => l.split(':')[0])).toEqual(['base', 'head']);
    expect(head).toContain(`warning: head ${empty}: no deliveries: the slog is empty (compared anyway: --allow-empty)`);
    expect(markdown.status).toBe(0);
    const md = markdown.stdout.split('\n');
    const warning = md.findIndex((l) => l.startsWith('> **Warning:** '));
    expect(md[warning]).toBe(`> **Warning:** head ${empty.replace(/[\\`*_<>|[\]#]/g, (c) => `\\${c}`)}: no deliveries: the slog is empty (compared anyway: --allow-empty)`);
    // Right under the verdict, above the side lines and the tables.
    expect(warning).toBeGreaterThan(md.indexOf('**no threshold exceeded (1 checked)**'));
    expect(warning).toBeLessThan(md.findIndex((l) => l.startsWith('- base: ')));
    // Both sides empty: one line each.
    expect(base.stdout.split('\n').filter((l) => l.startsWith('> **Warning:** '))).toEqual(
      ['base', 'head'].map((side) => `> **Warning:** ${side} ${good.replace(/[\\`*_<>|[\]#]/g, (c) => `\\${c}`)}: no deliveries in cranks 99999- (compared anyway: --allow-empty)`),
    );
    // A side with deliveries: no warning in the report.
    const fine = await runMain(['compare', '--format', 'markdown', good, good]);
    expect(fine.stdout).not.toContain('Warning');
  });
});
