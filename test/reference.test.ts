/**
 * The whole text render, byte for byte, against the reference output of every
 * shared slog and option set (fixtures/reference/README.md): in process, on
 * the fast path and on the plain path (each reporting which ran), from the
 * file and from gzipped bytes; and through the real command from a file, from
 * stdin and gzipped on stdin, for each slog.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { renderSlog } from '../src/run/render.js';
import { expectSameText, readSlog, REFERENCE_OPTIONS, referenceText, renderArgs, runCli, SLOG_NAMES, slogPath } from './helpers.js';

const cases = SLOG_NAMES.flatMap((slog) =>
  Object.entries(REFERENCE_OPTIONS)
    .filter(([name]) => name !== 'annotated-nonoise-novatstore' || slog === 'a-local-3')
    .map(([name, args]) => ({ slog, name, args })),
);

describe.each(cases)('$slog $name', ({ slog, name, args }) => {
  const expected = referenceText(slog, name);
  const { options, annotations } = renderArgs(args);

  it('fast path, then plain path, from the file', async () => {
    const fast = await renderSlog({ inputs: [slogPath(slog)], options, annotations });
    expect(fast.path).toBe('fast');
    expect(fast.badLines).toBe(0);
    expectSameText(fast.text, expected);
    const plain = await renderSlog({ inputs: [slogPath(slog)], options, annotations, path: 'plain' });
    expect(plain.path).toBe('plain');
    expectSameText(plain.text, expected);
  });

  it('gzipped bytes', async () => {
    const r = await renderSlog({ inputs: [{ name: `${slog}.slog.gz`, bytes: gzipSync(readSlog(slog)) }], options, annotations });
    expectSameText(r.text, expected);
  });
});

describe.each(SLOG_NAMES)('%s through bin/slogulate', (slog) => {
  it('from the file, from stdin, and gzipped on stdin with no file argument', async () => {
    const [file, stdin, gzipped] = await Promise.all([
      runCli(['--timing', `${slog}.slog`]),
      runCli(['--timing', '-'], { stdin: readSlog(slog) }),
      runCli(['--timing'], { stdin: gzipSync(readSlog(slog)) }),
    ]);
    for (const r of [file, stdin, gzipped]) {
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expectSameText(r.stdout, referenceText(slog, 'timing'));
    }
  });
});
