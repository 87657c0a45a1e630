/**
 * Every command on a damaged slog, through the command line in process
 * (test/run-main.ts): it exits 0, 1 or 2, prints at most one stderr line
 * per bad line (and only for lines that are bad: counted here by a plain
 * loop of JSON.parse over the slog's lines), no more than two other stderr
 * lines, no stack trace and no internal error. And the render and stats
 * print the same with every line streamed as a big line.
 *
 * The slogs: a window of consecutive real lines of a-local-3 or chain-A
 * (issue 29), some lines damaged (mutations.ts), dropped, written twice,
 * swapped, or lines from the grammar put in between.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { READ_AMISS, TOO_DEEP } from '../../src/scan/big-line.js';
import { runMain } from '../run-main.js';
import { slogBytes, type SlogShape } from './fuzz-slogs.js';
import { mutateAll, mutation, type Mutation } from './mutations.js';
import { SHARED } from './real-lines.js';
import { grammarLine } from './slog-grammar.js';

/** The slogs windows are taken from. */
export const COMMAND_SOURCES = ['a-local-3.slog', 'real/chain-A.slog'] as const;

const linesOf = new Map<string, string[]>();
function sourceLines(name: string): string[] {
  let lines = linesOf.get(name);
  if (!lines) linesOf.set(name, (lines = readFileSync(join(SHARED, name), 'utf8').split('\n').filter((l) => l !== '')));
  return lines;
}

type Edit =
  | { kind: 'mutate'; at: number; mutations: Mutation[] }
  | { kind: 'drop'; at: number }
  | { kind: 'twice'; at: number }
  | { kind: 'swap'; at: number }
  | { kind: 'insert'; at: number; line: string };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('mutate' as const), at: fc.nat(), mutations: fc.array(mutation, { minLength: 1, maxLength: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('drop' as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('twice' as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('swap' as const), at: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), line: grammarLine }) },
);

export interface CommandSlog {
  source: (typeof COMMAND_SOURCES)[number];
  start: number;
  length: number;
  edits: Edit[];
  crlf: boolean;
  bom: boolean;
  lastNewline: boolean;
}

export const commandSlog: fc.Arbitrary<CommandSlog> = fc.record({
  source: fc.constantFrom(...COMMAND_SOURCES),
  start: fc.nat(),
  length: fc.integer({ min: 10, max: 160 }),
  edits: fc.array(edit, { maxLength: 8 }),
  crlf: fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  bom: fc.oneof({ weight: 8, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  lastNewline: fc.oneof({ weight: 5, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
});

/** The window as the kernel wrote it, and damaged. */
export function commandSlogBytes(s: CommandSlog): { base: Buffer; damaged: Buffer } {
  const all = sourceLines(s.source);
  const from = s.start % Math.max(1, all.length - s.length);
  const window = all.slice(from, from + s.length);
  const lines: Buffer[] = window.map((l) => Buffer.from(l));
  for (const e of s.edits) {
    const at = e.at % Math.max(1, lines.length);
    if (lines.length === 0 && e.kind !== 'insert') continue;
    if (e.kind === 'mutate') lines[at] = mutateAll(lines[at] as Buffer, e.mutations);
    else if (e.kind === 'drop') lines.splice(at, 1);
    else if (e.kind === 'twice') lines.splice(at, 0, lines[at] as Buffer);
    else if (e.kind === 'swap' && at + 1 < lines.length) lines.splice(at, 2, lines[at + 1] as Buffer, lines[at] as Buffer);
    else if (e.kind === 'insert') lines.splice(at, 0, Buffer.from(e.line));
  }
  const shape = (ls: Buffer[], damaged: boolean): SlogShape => ({ lines: ls, crlf: damaged && s.crlf, bom: damaged && s.bom, lastNewline: !damaged || s.lastNewline });
  return { base: slogBytes(shape(window.map((l) => Buffer.from(l)), false)), damaged: slogBytes(shape(lines, true)) };
}

/**
 * The 1-based numbers of the lines that are no slog entry, by a plain loop:
 * lines split on `\n` (a `\r` before it and a BOM at the start dropped),
 * blank ones (JSON's white space only) skipped, the rest JSON.parse'd: an object with a string
 * `type`, or a contextual line (`body` an object with a string `type`, and
 * no `type` of its own), is an entry.
 */
export function badLineNumbers(bytes: Buffer): Set<number> {
  const from = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const text = bytes.subarray(from).toString('utf8');
  const bad = new Set<number>();
  text.split('\n').forEach((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (/^[ \t\r]*$/.test(line)) return;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      bad.add(i + 1);
      return;
    }
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return void bad.add(i + 1);
    const o = v as Record<string, unknown>;
    if (typeof o.type === 'string') return;
    const body = o.body as Record<string, unknown> | null | undefined;
    if (body !== null && typeof body === 'object' && !Array.isArray(body) && typeof body.type === 'string' && !('type' in o)) return;
    bad.add(i + 1);
  });
  return bad;
}

/** Each command, given the damaged slog, the window undamaged (compare's base) and a folder for its files. */
export const COMMANDS: ReadonlyArray<{ name: string; args: (slog: string, base: string, out: string) => string[] }> = [
  { name: 'render', args: (s) => [s] },
  { name: 'render --nonoise --novatstore --timing --vatspace', args: (s) => ['--nonoise', '--novatstore', '--timing', '--vatspace', s] },
  { name: 'render --strict --summarize', args: (s) => ['--strict', '--summarize', s] },
  { name: 'top', args: (s) => ['top', s] },
  { name: 'stats', args: (s) => ['stats', s] },
  { name: 'stats --json', args: (s) => ['stats', '--json', s] },
  { name: 'compare', args: (s, b) => ['compare', b, s] },
  { name: 'flow', args: (s) => ['flow', s] },
  { name: 'kref', args: (s) => ['kref', 'ko22', s] },
  { name: 'trace', args: (s) => ['trace', s] },
  { name: 'blocks', args: (s) => ['blocks', s] },
  { name: 'runs', args: (s) => ['runs', s] },
  { name: 'export --format csv', args: (s, _b, out) => ['export', s, '--to', join(out, 'tables'), '--format', 'csv', '--replace'] },
  { name: 'diverge', args: (s, b) => ['diverge', b, s] },
  { name: 'growth --alive', args: (s) => ['growth', '--alive', 'v1', s] },
  { name: 'why --forward', args: (s) => ['why', '--forward', '1', s] },
  { name: 'sequence', args: (s) => ['sequence', '--cranks', '0-1000', s] },
  { name: 'extract', args: (s) => ['extract', '--cranks', '0-1000', s] },
];

const STACK_LINE = /^\s+at .+(:\d+:\d+\)?|\(native\))$/m;

/** What is wrong with a command's run on a slog whose bad lines are `bad`, or undefined. */
export function commandProblem(r: { status: number | null; stdout: string; stderr: string }, slog: string, bad: Set<number>): string | undefined {
  if (r.status === null || ![0, 1, 2].includes(r.status)) return `exit status ${r.status}`;
  if (STACK_LINE.test(r.stderr) || STACK_LINE.test(r.stdout)) return `a stack trace: ${r.stderr.slice(0, 600)}`;
  if (/internal error/.test(r.stderr)) return `an internal error: ${r.stderr.slice(0, 600)}`;
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  const perLine = new Map<number, number>();
  let others = 0;
  const prefix = `slogulate: ${slog}:`;
  for (const l of lines) {
    const m = l.startsWith(prefix) ? /^(\d+): /.exec(l.slice(prefix.length)) : null;
    if (!m) {
      others += 1;
      continue;
    }
    const n = Number(m[1]);
    perLine.set(n, (perLine.get(n) ?? 0) + 1);
  }
  for (const [n, count] of perLine) {
    if (count > 1) return `${count} stderr lines for line ${n}: ${r.stderr.slice(0, 600)}`;
    if (!bad.has(n)) return `line ${n} reported, but JSON.parse reads it as an entry: ${r.stderr.slice(0, 600)}`;
  }
  if (others > 2) return `${others} stderr lines that name no line: ${r.stderr.slice(0, 600)}`;
  return undefined;
}

/** Runs every command on a slog (written into `dir`); the first problem, or undefined. */
export async function checkCommands(s: CommandSlog, dir: string, commands = COMMANDS): Promise<string | undefined> {
  const { base, damaged } = commandSlogBytes(s);
  return checkCommandsOn(damaged, base, dir, commands);
}

export async function checkCommandsOn(damaged: Buffer, base: Buffer, dir: string, commands = COMMANDS): Promise<string | undefined> {
  const slog = join(dir, 'fuzzed.slog');
  const baseFile = join(dir, 'base.slog');
  writeFileSync(slog, damaged);
  writeFileSync(baseFile, base);
  const bad = badLineNumbers(damaged);
  for (const c of commands) {
    let r: { status: number | null; stdout: string; stderr: string };
    try {
      r = await runMain(c.args(slog, baseFile, dir));
    } catch (err) {
      return `slogulate ${c.name}: threw ${(err as Error).stack ?? String(err)}`;
    }
    const problem = commandProblem(r, slog, bad);
    if (problem) return `slogulate ${c.name}: ${problem}`;
  }
  return streamedAlike(slog);
}

/** A bad-line report without the parser's words (JSON.parse's and the token stream's differ). */
const fault = (stderr: string): string => stderr.replace(/^(slogulate: .*?:\d+: (?:not JSON|truncated last line \(no newline at end\))): .*$/gm, '$1');

/**
 * The render and stats with every line read as a big line (SLOGULATE_BIG_LINE_BYTES=0: a stream of tokens,
 * scan/big-line.ts) print what they print with lines read whole by JSON.parse (SLOGULATE_FAST=0), and report
 * the same bad lines. Both read every byte of a line as JSON; the byte reader does not (a line damaged only
 * where it reads nothing is an entry there: docs/architecture.md), and is checked against JSON.parse, with
 * that exception, by the reading properties (reading-oracle.ts).
 */
async function streamedAlike(slog: string): Promise<string | undefined> {
  for (const args of [[slog], ['stats', slog]]) {
    const whole = await runMain(args, { env: { SLOGULATE_FAST: '0' } });
    const streamed = await runMain(args, { env: { SLOGULATE_BIG_LINE_BYTES: '0' } });
    // A line the token path cannot read as it streams (big-line.ts READ_AMISS, TOO_DEEP) is read whole: the outputs differ by it.
    if (streamed.stderr.includes(READ_AMISS) || streamed.stderr.includes(TOO_DEEP)) continue;
    if (streamed.status !== whole.status || streamed.stdout !== whole.stdout || fault(streamed.stderr) !== fault(whole.stderr)) {
      return `slogulate ${args.length > 1 ? 'stats' : 'render'} with every line streamed (SLOGULATE_BIG_LINE_BYTES=0) differs from lines read whole: exit ${streamed.status} and ${whole.status}; stderr ${JSON.stringify(streamed.stderr.slice(0, 300))} and ${JSON.stringify(whole.stderr.slice(0, 300))}${streamed.stdout === whole.stdout ? '' : '; stdout differs'}`;
    }
  }
  return undefined;
}
