/**
 * Color: only for a terminal (or when forced), never changing the text. On
 * every shared slog, removing the escapes gives the reference text byte for
 * byte; the styled parts are checked against the plain text, and the "large
 * time" highlighting against the crank totals of the reference --timing
 * text.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { Writable } from 'node:stream';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { emptyAnnotations, loadAnnotations } from '../src/model/annotations.js';
import { Colorizer, colorWanted, LargeTimes, stripColor } from '../src/render/color.js';
import { TerminalSession } from '../src/cli/terminal.js';
import { Output } from '../src/cli/output.js';
import { BIN, FIXTURES, referenceText, runCli, SLOG_NAMES, SLOGS, expectSameText } from './helpers.js';
import { join } from 'node:path';

const ANNOTATIONS = join(FIXTURES, 'annotations', 'a-local-3.annot.json');
const chalk = new Chalk({ level: 1 });
/** The escape that opens a style (chalk's own, not spelled out here). */
const opener = (style: (s: string) => string): string => style('x').split('x')[0] as string;
const ESC = '\x1b[';

describe('when to color', () => {
  const env = (vars: Record<string, string>): NodeJS.ProcessEnv => vars;
  it.each([
    ['a terminal', undefined, true, {}, true],
    ['a pipe', undefined, false, {}, false],
    ['a terminal with NO_COLOR', undefined, true, { NO_COLOR: '1' }, false],
    ['a terminal with an empty NO_COLOR', undefined, true, { NO_COLOR: '' }, true],
    ['a dumb terminal', undefined, true, { TERM: 'dumb' }, false],
    ['a terminal with --no-color', false, true, {}, false],
    ['a pipe with --color', true, false, {}, true],
    ['a pipe with --color and NO_COLOR', true, false, { NO_COLOR: '1' }, true],
    ['a pipe with FORCE_COLOR=1', undefined, false, { FORCE_COLOR: '1' }, true],
    ['a pipe with an empty FORCE_COLOR', undefined, false, { FORCE_COLOR: '' }, true],
    ['a terminal with FORCE_COLOR=0', undefined, true, { FORCE_COLOR: '0' }, false],
    ['--no-color over FORCE_COLOR', false, false, { FORCE_COLOR: '1' }, false],
  ] as const)('%s', (_what, flag, isTTY, vars, wanted) => {
    expect(colorWanted({ flag, isTTY, env: env(vars) })).toBe(wanted);
  });
});

/** Which reference texts to color, and with which annotations. */
const CASES = SLOG_NAMES.flatMap((slog) => [
  { slog, name: 'default', annotated: false },
  { slog, name: 'timing', annotated: false },
  { slog, name: 'vatspace', annotated: false },
  { slog, name: 'usesloggertags', annotated: false },
  { slog, name: 'no-clist-no-crankbreaks', annotated: false },
  ...(slog === 'a-local-3' ? [{ slog, name: 'annotated-nonoise-novatstore', annotated: true }] : []),
]);

describe.each(CASES)('coloring $slog $name', ({ slog, name, annotated }) => {
  const plain = referenceText(slog, name);
  const annotations = annotated ? loadAnnotations(ANNOTATIONS) : emptyAnnotations();
  const colored = new Colorizer(new Chalk({ level: 1 }), annotations).text(plain);
  const plainLines = plain.split('\n');
  const coloredLines = colored.split('\n');

  it('is the plain text once the escapes are removed', () => {
    expect(colored).not.toBe(plain);
    expectSameText(stripColor(colored), plain);
    expect(coloredLines.length).toBe(plainLines.length);
  });

  it('styles crank headers, vats, methods and refs', () => {
    const vat = opener(chalk.cyan.bold);
    const method = opener(chalk.green);
    const ref = opener(chalk.blue);
    let headers = 0;
    let messages = 0;
    plainLines.forEach((line, i) => {
      const c = coloredLines[i] as string;
      const header = /^\/\/ crank \d+: (v\d+) /.exec(line);
      if (header) {
        headers += 1;
        expect(c.startsWith(opener(chalk.bold))).toBe(true);
        expect(c).toContain(`${vat}${header[1]} `);
      }
      // `deliver: @ko22 <- openAccount(...)` and `send: @ko30 <- deposit(...)`
      const message = /^(?:deliver|send|syscall send): (@\S+|<[^<>]+>) <- ([^\s(]+)\(/.exec(line);
      if (message) {
        messages += 1;
        const target = message[1] as string;
        expect(c).toContain(`${target.startsWith('@') ? ref : opener(chalk.magenta)}${target}`);
        expect(c).toContain(`${method}${message[2]}`);
      }
    });
    if (name !== 'no-clist-no-crankbreaks') expect(headers).toBeGreaterThan(10);
    expect(messages).toBeGreaterThan(10);
  });

  if (annotated) {
    it('styles the names from the annotation file, and only those', () => {
      const named = opener(chalk.magenta);
      const names = new Set(annotations.kernelRefs.values());
      let seen = 0;
      for (const m of plain.matchAll(/<([^<>\n]+)>/g)) {
        if (names.has(m[1] as string)) seen += 1;
      }
      expect(seen).toBeGreaterThan(5);
      expect(colored.split(`${named}<`).length - 1).toBe(seen);
      for (const label of annotations.crankLabels.values()) {
        if (plain.includes(` --- ${label}`)) expect(colored).toContain(`${opener(chalk.magenta.bold)}${label}`);
      }
    });
  }
});

describe('large crank times (the top 5% of those seen so far)', () => {
  const large = opener(chalk.red.bold);
  it.each(SLOG_NAMES)('%s: every highlighted total is large, every other one is not', (slog) => {
    const plain = referenceText(slog, 'timing');
    const colored = new Colorizer(new Chalk({ level: 1 }), emptyAnnotations()).text(plain);
    const plainLines = plain.split('\n');
    const coloredLines = colored.split('\n');
    const seen: number[] = [];
    let highlighted = 0;
    plainLines.forEach((line, i) => {
      const m = /^\/\/ crank \d+: v\d+ .*\[total:(\d+)µs /.exec(line);
      if (!m) return;
      const v = Number(m[1]);
      seen.push(v);
      const n = seen.length;
      const isLarge = (coloredLines[i] as string).includes(`${large}total:${v}µs`);
      if (isLarge) {
        highlighted += 1;
        expect(n).toBeGreaterThanOrEqual(20);
        // At most 5% of the totals so far are as large.
        expect(seen.filter((w) => w >= v).length).toBeLessThanOrEqual(0.05 * n);
      } else if (n >= 20) {
        // More than 5% are about as large (within the 1/16 octave the counting works in) or larger.
        const near = seen.filter((w) => w + 1 > (v + 1) * 2 ** (-1 / 16)).length;
        expect(near).toBeGreaterThan(0.05 * n);
      }
    });
    expect(seen.length).toBeGreaterThan(40);
    expect(highlighted).toBeGreaterThan(0);
    expect(highlighted).toBeLessThan(seen.length * 0.25);
  });

  it('needs 20 times before anything is large, and keeps fixed memory', () => {
    const early = new LargeTimes();
    for (let i = 0; i < 19; i += 1) expect(early.add(10 ** i)).toBe(false);
    expect(early.add(10 ** 20)).toBe(true);
    const t = new LargeTimes();
    for (let i = 0; i < 100; i += 1) t.add(10);
    expect(t.add(50_000)).toBe(true);
    expect(t.add(10)).toBe(false);
    // A time beyond any bucket still counts, in the last one.
    expect(t.add(Number.MAX_SAFE_INTEGER)).toBe(true);
  });
});

describe('the command line', () => {
  it('is plain when piped (NO_COLOR is unset here)', async () => {
    const r = await runCli(['--timing', 'a-local-3.slog'], { env: { NO_COLOR: undefined } });
    expect(r.status).toBe(0);
    expect(r.stdout.includes(ESC)).toBe(false);
    expectSameText(r.stdout, referenceText('a-local-3', 'timing'));
  });

  it.each([
    ['--color', ['--color'], {}],
    ['FORCE_COLOR=1', [], { FORCE_COLOR: '1' }],
  ])('is colored in a pipe with %s, and the same text underneath', async (_what, args, env) => {
    const r = await runCli([...args, '--timing', 'a-xs-3.slog'], { env });
    expect(r.status).toBe(0);
    expect(r.stdout.includes(ESC)).toBe(true);
    expectSameText(stripColor(r.stdout), referenceText('a-xs-3', 'timing'));
  });

  it('--no-color wins over FORCE_COLOR', async () => {
    const r = await runCli(['--no-color', 'b-local-5.slog'], { env: { FORCE_COLOR: '1' } });
    expect(r.stdout.includes(ESC)).toBe(false);
    expectSameText(r.stdout, referenceText('b-local-5', 'default'));
  });

  it('--out to a file is plain, unless --color', async () => {
    const { mkdtempSync, readFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'slogulate-color-'));
    await runCli(['--out', join(dir, 'plain.txt'), 'a-local-3.slog'], { env: { NO_COLOR: undefined } });
    await runCli(['--color', '--out', join(dir, 'color.txt'), 'a-local-3.slog']);
    const plainText = readFileSync(join(dir, 'plain.txt'), 'utf8');
    const colorText = readFileSync(join(dir, 'color.txt'), 'utf8');
    expectSameText(plainText, referenceText('a-local-3', 'default'));
    expect(colorText.includes(ESC)).toBe(true);
    expectSameText(stripColor(colorText), plainText);
  });
});

describe('a terminal', () => {
  it('in process: an output whose isTTY is true gets color, unless NO_COLOR', async () => {
    const chunks: string[] = [];
    const tty = Object.assign(
      new Writable({
        write(chunk: Buffer, _enc, done) {
          chunks.push(chunk.toString());
          done();
        },
      }),
      { isTTY: true },
    );
    const out = new Output(tty, '<tty>');
    const saved = { NO_COLOR: process.env.NO_COLOR, FORCE_COLOR: process.env.FORCE_COLOR };
    try {
      delete process.env.NO_COLOR;
      delete process.env.FORCE_COLOR;
      const text = referenceText('a-local-3', 'nonoise');
      (await new TerminalSession(['x.slog'], {}, emptyAnnotations()).textOut(out))(text);
      out.flush();
      const written = chunks.join('');
      expect(written.includes(ESC)).toBe(true);
      expectSameText(stripColor(written), text);

      chunks.length = 0;
      process.env.NO_COLOR = '1';
      (await new TerminalSession(['x.slog'], {}, emptyAnnotations()).textOut(out))(text);
      out.flush();
      expectSameText(chunks.join(''), text);
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });

  /**
   * Runs the CLI with stdout on a pseudo-terminal (util-linux `script`; .ci/run
   * installs it, and the test fails where it is missing); returns what the terminal got.
   */
  function onTerminal(args: string[], env: NodeJS.ProcessEnv): string {
    const r = spawnSync('script', ['--version']);
    if (r.error || r.status !== 0) throw new Error('`script` (util-linux) is not installed here: this test runs the CLI on a pseudo-terminal with it (.ci/run installs it; on Debian: apt-get install bsdutils)');
    const command = [process.execPath, BIN, ...args].map((a) => `'${a}'`).join(' ');
    const raw = execFileSync('script', ['-qec', command, '/dev/null'], {
      cwd: SLOGS,
      env: { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined, TERM: 'xterm', ...env },
      maxBuffer: 64 << 20,
    });
    // The terminal turns each '\n' into '\r\n'.
    return raw.toString('utf8').replace(/\r\n/g, '\n');
  }

  it('on a real pseudo-terminal: colored, and the same text underneath', () => {
    const seen = onTerminal(['--nonoise', 'a-local-3.slog'], {});
    expect(seen.includes(ESC)).toBe(true);
    expectSameText(stripColor(seen), referenceText('a-local-3', 'nonoise'));
  });

  it('on a real pseudo-terminal with NO_COLOR or --no-color: plain', () => {
    expectSameText(onTerminal(['--nonoise', 'a-local-3.slog'], { NO_COLOR: '1' }), referenceText('a-local-3', 'nonoise'));
    expectSameText(onTerminal(['--no-color', '--nonoise', 'a-local-3.slog'], {}), referenceText('a-local-3', 'nonoise'));
  });
});
