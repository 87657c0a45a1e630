/**
 * Test helpers: where the fixtures are, and running the built CLI
 * (`bin/slogulate`, i.e. the compiled JavaScript users run).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const FIXTURES = join(ROOT, 'fixtures');
export const SLOGS = join(FIXTURES, 'slogs');
export const REFERENCE = join(FIXTURES, 'reference');
export const BIN = join(ROOT, 'bin', 'slogulate');

/** The three real slogs written by the SwingSet kernel. */
export const SLOG_NAMES = ['a-local-3', 'a-xs-3', 'b-local-5'] as const;
export type SlogName = (typeof SLOG_NAMES)[number];

export const slogPath = (name: string): string => join(SLOGS, `${name}.slog`);
export const readSlog = (name: string): Buffer => readFileSync(slogPath(name));
export const referenceText = (slog: string, name: string): string =>
  readFileSync(join(REFERENCE, slog, `${name}.txt`), 'utf8');

/** fixtures/reference/README.md: reference name -> options. */
export const REFERENCE_OPTIONS: Record<string, string[]> = {
  default: [],
  nonoise: ['--nonoise'],
  'nonoise-novatstore': ['--nonoise', '--novatstore'],
  timing: ['--timing'],
  'nonoise-novatstore-timing': ['--nonoise', '--novatstore', '--timing'],
  vatspace: ['--vatspace'],
  summarize: ['--summarize'],
  'bigwidth-40': ['--bigwidth', '40'],
  usesloggertags: ['--usesloggertags'],
  'no-clist-no-crankbreaks': ['--no-clist', '--no-crankbreaks'],
  'annotated-nonoise-novatstore': ['--nonoise', '--novatstore', '--annotations', '../annotations/a-local-3.annot.json'],
};


export interface CliResult {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs bin/slogulate with args (cwd: the slogs folder unless given), feeding `stdin` if given. */
export function runCli(
  args: string[],
  opts: { stdin?: Buffer | string; cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: opts.cwd ?? SLOGS,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('close', (status, signal) =>
      resolve({
        status,
        signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      }),
    );
    child.stdin.on('error', () => undefined);
    if (opts.stdin !== undefined) child.stdin.end(opts.stdin);
    else child.stdin.end();
  });
}
