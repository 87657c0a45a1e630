/**
 * Regression cases: every input a fuzzed property ever failed on, one JSON
 * file each in test/fuzz/regressions/ (written by `npm run fuzz`, or by
 * hand for a bug found otherwise while fuzzing), replayed by
 * regressions.test.ts against the property's check. A case says what was
 * wrong in one line (`note`), which check it fails (`check`), how it was
 * found (`seed`, `found`), and holds its input: the bytes as text when they
 * are valid UTF-8, else in base64, with what the check needs besides.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const REGRESSIONS = join(import.meta.dirname, 'regressions');

/** Bytes as a case holds them. */
export type CaseBytes = { text: string } | { base64: string };

/** A slog with a huge line (huge-lines.ts), made again from this: its kind, the line's size, the command, the big-line threshold. */
export interface HugeInput {
  kind: string;
  size: number;
  args: string[];
  bigLineBytes?: number;
}

export interface RegressionCase {
  note: string;
  check: 'paths' | 'streaming' | 'commands' | 'gzip-cut' | 'huge';
  seed?: number;
  found?: string;
  input: (CaseBytes & { chunks?: number[]; bigLineBytes?: number; base?: CaseBytes }) | { huge: HugeInput };
}

export function bytesOf(bytes: Buffer): CaseBytes {
  const text = bytes.toString('utf8');
  return Buffer.from(text, 'utf8').equals(bytes) ? { text } : { base64: bytes.toString('base64') };
}

export function caseBytes(b: CaseBytes | { huge: HugeInput }): Buffer {
  if ('huge' in b) throw new Error('a huge line is made again, not held in the case');
  return 'text' in b ? Buffer.from(b.text, 'utf8') : Buffer.from(b.base64, 'base64');
}

/** Every case, by file name. */
export function regressionCases(dir = REGRESSIONS): Array<{ file: string; case: RegressionCase }> {
  return readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .sort()
    .map((file) => ({ file, case: JSON.parse(readFileSync(join(dir, file), 'utf8')) as RegressionCase }));
}

/** Writes a case (its name from its check and seed, numbered past any case of that name); returns its path. */
export function writeRegression(c: RegressionCase, dir = REGRESSIONS): string {
  const stem = `${c.check}-${c.seed ?? 'manual'}`;
  const taken = new Set(readdirSync(dir));
  let name = `${stem}.json`;
  for (let k = 2; taken.has(name); k += 1) name = `${stem}-${k}.json`;
  const file = join(dir, name);
  writeFileSync(file, `${JSON.stringify(c, null, 2)}\n`);
  return file;
}
