/**
 * `slogulate completion bash|zsh`: the scripts know every subcommand and
 * option of the program (read from the commander program itself, so that
 * commands other engineers add are in), bash really completes with it (in a
 * folder of the test's own files), and zsh reads its script. bash and zsh
 * are no npm packages: .ci/run installs them; where one is missing, its
 * tests fail saying so.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command, Option } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../src/cli/main.js';
import { runCli } from './helpers.js';
import { runInProcess } from './run-main.js';

const dir = mkdtempSync(join(tmpdir(), 'slogulate-completion-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const program = await buildProgram({ full: true });
const subcommands = program.commands.map((c) => c.name());
const longOptions = (cmd: Command): string[] => [...cmd.options.filter((o) => !o.hidden).map((o) => o.long as string), '--help'];

/**
 * The values an option takes, where they are a fixed set: commander's
 * `.choices()`, or what its own parser says when it refuses a value
 * (`expected one of total, local, ...`: `top --by`). Found from the program,
 * so that an option added later with a fixed set is checked too.
 */
function fixedValues(o: Option): string[] | undefined {
  if (o.argChoices) return o.argChoices;
  if (!(o.required || o.optional) || !o.parseArg) return undefined;
  try {
    o.parseArg('\u0001not a value\u0001', undefined);
  } catch (err) {
    const list = /expected one of (.*)$/.exec((err as Error).message)?.[1];
    if (list) return list.split(', ');
  }
  return undefined;
}
const withValues = [program, ...program.commands].flatMap((cmd) =>
  cmd.options.filter((o) => !o.hidden).flatMap((o) => {
    const values = fixedValues(o);
    return values ? [{ cmd, option: o, values }] : [];
  }),
);

/** Fails, saying what to install, where `program` is not installed. */
function needs(program: string): void {
  const r = spawnSync(program, ['--version']);
  if (r.error || r.status !== 0) throw new Error(`${program} is not installed here: these tests run it (.ci/run installs it; on Debian: apt-get install ${program})`);
}

/**
 * The files completion may offer, and nothing else: a slogs folder of the
 * test's own (named as the fixtures are; completion reads names only) beside
 * an annotations folder, so that a file a user left in fixtures/ is never seen.
 */
const SLOGS = join(dir, 'slogs');
mkdirSync(SLOGS);
mkdirSync(join(dir, 'annotations'));
for (const name of ['a-local-3.slog', 'a-xs-3.slog', 'b-local-5.slog']) writeFileSync(join(SLOGS, name), '');
writeFileSync(join(dir, 'annotations', 'a-local-3.annot.json'), '{}\n');

describe('bash', () => {
  const script = join(dir, 'slogulate.bash');
  beforeAll(async () => {
    needs('bash');
    const r = await runInProcess(['completion', 'bash']);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    writeFileSync(script, r.stdout);
  });

  /** What bash offers for the words typed so far (the last one being completed). */
  function complete(...words: string[]): string[] {
    const array = ['slogulate', ...words].map((w) => `'${w}'`).join(' ');
    const r = spawnSync(
      'bash',
      ['-c', `source '${script}'; COMP_WORDS=(${array}); COMP_CWORD=${words.length}; _slogulate; printf '%s\\n' "\${COMPREPLY[@]}"`],
      { cwd: SLOGS, encoding: 'utf8' },
    );
    expect(r.stderr).toBe('');
    return r.stdout.split('\n').filter(Boolean).sort();
  }

  it('is valid bash, and registers itself', () => {
    const r = spawnSync('bash', ['-c', `source '${script}' && complete -p slogulate`], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('-F _slogulate slogulate');
  });

  it('completes every subcommand', () => {
    expect(subcommands).toEqual(expect.arrayContaining(['trace', 'completion']));
    for (const name of subcommands) expect(complete(name.slice(0, 2))).toContain(name);
  });

  it("completes each command's options", () => {
    expect(complete('--').filter((w) => w.startsWith('--'))).toEqual(longOptions(program).sort());
    for (const cmd of program.commands) {
      expect(complete(cmd.name(), '--').filter((w) => w.startsWith('--'))).toEqual(longOptions(cmd).sort());
    }
    expect(complete('--ti')).toEqual(['--timing']);
  });

  it('completes files where a slog or a file goes, and choices where there are some', () => {
    expect(complete('a-lo')).toEqual(['a-local-3.slog']);
    expect(complete('trace', 'b-')).toEqual(['b-local-5.slog']);
    expect(complete('trace', '-o', 'a-x')).toEqual(['a-xs-3.slog']);
    expect(complete('--annotations', '../annotations/a-')).toEqual(['../annotations/a-local-3.annot.json']);
    expect(complete('completion', '')).toEqual(['bash', 'zsh']);
    // A value that is not a file: nothing to offer.
    expect(complete('--cranks', '')).toEqual([]);
  });

  it('completes the values of an option that takes a fixed set: top --by, --format, --sort...', () => {
    expect(complete('top', '--by', '')).toEqual(['computrons', 'gc', 'kernel', 'local', 'page-in', 'pipe', 'snapshot', 'syscall', 'syscall-count', 'syscall-fraction', 'total', 'vat']);
    expect(complete('top', '--by', 'sys')).toEqual(['syscall', 'syscall-count', 'syscall-fraction']);
    // Repeatable: again after a first one, and after other options.
    expect(complete('top', '--by', 'total', '-n', '3', '--by', 'lo')).toEqual(['local']);
    expect(complete('stats', '--format', '')).toEqual(['markdown', 'text']);
    expect(complete('blocks', '--sort', 'c')).toEqual(['computrons', 'crank-time', 'cranks']);
    // Every such option of every command, found from the program.
    const names = withValues.map(({ cmd, option }) => `${cmd.name()} ${option.long}`);
    expect(names).toEqual(expect.arrayContaining(['top --by', 'stats --format', 'compare --format', 'query --format', 'export --format', 'blocks --sort', 'runs --sort']));
    for (const { cmd, option, values } of withValues) {
      const words = cmd === program ? [] : [cmd.name()];
      for (const flag of [option.long, option.short].filter((f): f is string => f !== undefined)) {
        expect(complete(...words, flag, ''), `${cmd.name()} ${flag}`).toEqual([...values].sort());
      }
    }
  });

  it('keeps up with the command line: help and its commands, top/stats -o, --annot, --version', () => {
    expect(complete('he')).toEqual(['help']);
    expect(complete('help', 't')).toEqual(['top', 'trace']);
    expect(complete('top', '--o')).toEqual(['--out']);
    expect(complete('stats', '-o', 'a-x')).toEqual(['a-xs-3.slog']);
    expect(complete('--ann')).toEqual(['--annot', '--annotations']);
    expect(complete('--ver')).toEqual(['--version']);
    expect(complete('compare', '--fo')).toEqual(['--force', '--format']);
  });
});

describe('zsh', () => {
  let text = '';
  beforeAll(async () => {
    const r = await runInProcess(['completion', 'zsh']);
    expect(r.status).toBe(0);
    text = r.stdout;
  });

  it('is a #compdef function that knows every subcommand and option', () => {
    expect(text.startsWith('#compdef slogulate\n')).toBe(true);
    for (const name of subcommands) expect(text).toMatch(new RegExp(`^ {4}'${name}:`, 'm'));
    for (const cmd of [program, ...program.commands]) {
      for (const long of longOptions(cmd)) expect(text).toContain(`${long}`);
    }
  });

  it('completes the values of an option that takes a fixed set (top --by, --format, --sort...)', () => {
    expect(text).toMatch(/^ +'\*--by=\[[^\n]*\]:value:\(total local syscall syscall-fraction syscall-count computrons page-in vat pipe snapshot kernel gc\)' \\$/m);
    for (const { option, values } of withValues) {
      expect(text, option.long).toContain(`]:value:(${values.join(' ')})'`);
    }
  });

  it('is valid zsh (`zsh -n`)', () => {
    needs('zsh');
    const file = join(dir, '_slogulate');
    writeFileSync(file, text);
    const r = spawnSync('zsh', ['-n', file], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});

describe('usage', () => {
  it('needs bash or zsh', async () => {
    const r = await runCli(['completion', 'fish']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("'fish' is invalid");
    expect(r.stderr).toContain('bash, zsh');
  });
});
