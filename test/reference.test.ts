/**
 * The whole text render, byte for byte, against the reference output of every
 * shared slog and option set (fixtures/reference/README.md), read from the
 * file, from stdin, and gzipped.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readSlog, REFERENCE_OPTIONS, referenceText, runCli, SLOG_NAMES } from './helpers.js';


const cases = SLOG_NAMES.flatMap((slog) =>
  Object.entries(REFERENCE_OPTIONS)
    .filter(([name]) => name !== 'annotated-nonoise-novatstore' || slog === 'a-local-3')
    .map(([name, args]) => ({ slog, name, args })),
);

describe.each(cases)('$slog $name', ({ slog, name, args }) => {
  const expected = referenceText(slog, name);

  it('from the file', async () => {
    const r = await runCli([...args, `${slog}.slog`]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout === expected).toBe(true);
  });

  it('from stdin', async () => {
    const r = await runCli([...args, '-'], { stdin: readSlog(slog) });
    expect(r.status).toBe(0);
    expect(r.stdout === expected).toBe(true);
  });

  it('gzipped, on stdin with no file argument', async () => {
    const r = await runCli(args, { stdin: gzipSync(readSlog(slog)) });
    expect(r.status).toBe(0);
    expect(r.stdout === expected).toBe(true);
  });
});
