/**
 * Options of the plain render written before a subcommand (issue 13): the
 * subcommand applies those it has, wherever they stand, and refuses the
 * others with one line naming the option; never nothing with status 0.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { slogPath } from './helpers.js';
import { runMain } from './run-main.js';

const dir = mkdtempSync(join(tmpdir(), 'slogulate-root-options-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const f = slogPath('a-local-3');
const b = slogPath('b-local-5');
const names = join(dir, 'names.json');
writeFileSync(names, JSON.stringify({ vatNames: { v7: 'robert', v6: 'alicia' } }));

describe('a render option the subcommand also has, before its name, is applied', () => {
  const cases: Array<[string, string[], string[]]> = [
    ['--cranks before top', ['--cranks', '100-200', 'top', f], ['top', '--cranks', '100-200', f]],
    ['--cranks=LIST before top', ['--cranks=100-200', 'top', f], ['top', '--cranks', '100-200', f]],
    ['--vat before stats', ['--vat', 'bob', 'stats', f], ['stats', '--vat', 'bob', f]],
    ['--annotations before compare', ['--annotations', names, 'compare', f, b], ['compare', '--annotations', names, f, b]],
    ['--annot before flow', ['--annot', names, 'flow', '--cranks', '30-40', f], ['flow', '--annotations', names, '--cranks', '30-40', f]],
    ['--nonoise before kref', ['--nonoise', 'kref', 'kp44', f], ['kref', '--nonoise', 'kp44', f]],
    ['--vat before and after top: both', ['--vat', 'bob', 'top', '--vat', 'alice', f], ['top', '--vat', 'bob', '--vat', 'alice', f]],
    ['--cranks before and after: the later wins', ['--cranks', '1-5', 'top', '--cranks', '100-200', f], ['top', '--cranks', '100-200', f]],
  ];
  it.each(cases)('%s', async (_what, before, after) => {
    const moved = await runMain(before);
    const usual = await runMain(after);
    expect(usual.status).toBe(0);
    expect(usual.stdout).not.toBe('');
    expect(moved).toEqual(usual);
  });

  it('-o before trace writes the trace there', async () => {
    const out = join(dir, 'trace.json');
    const r = await runMain(['-o', out, 'trace', slogPath('a-xs-3')]);
    expect(r).toMatchObject({ status: 0, stdout: '', stderr: `slogulate: wrote ${out} (${(statSync(out).size / 1024).toFixed(1)} KB)\n` });
    expect((JSON.parse(readFileSync(out, 'utf8')) as { traceEvents: unknown[] }).traceEvents.length).toBeGreaterThan(100);
  });
});

describe('a render option the subcommand does not have, before its name, is a usage error', () => {
  const cases: Array<[string, string[], string]> = [
    ['--nonoise stats', ['--nonoise', 'stats', f], '--nonoise is not an option of stats'],
    ['--timing top', ['--timing', 'top', f], '--timing is not an option of top'],
    ['--no-clist compare', ['--no-clist', 'compare', f, b], '--no-clist is not an option of compare'],
    ['--summarize annotate', ['--summarize', 'annotate', f], '--summarize is not an option of annotate'],
    ['--strict with a value-taking option before it', ['--bigwidth', '40', '--strict', 'kref', 'kp44', f], '--strict is not an option of kref'],
  ];
  it.each(cases)('%s: status 2, one line naming the option', async (_what, args, message) => {
    const r = await runMain(args);
    const { status, signal, stdout, stderr } = r;
    expect({ status, signal, stdout, stderr }).toEqual({ status: 2, signal: null, stdout: '', stderr: `slogulate: ${message} (see slogulate ${message.split(' ').pop()} --help)\n` });
  });
});
