/**
 * Slogs as chain nodes write them (../shared/slogs/real, SLOG-FORMAT.md,
 * "Slogs as real nodes write them"): every one renders with no broken text,
 * and the analyses count each live delivery, syscall and computron once,
 * as a small independent loop over the lines counts them (replays and the
 * executions a restart abandoned left out).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compareSideOf, statsOf, topOf } from '../src/run/analyses.js';
import { renderSlog } from '../src/run/render.js';
import type { SlogAggregate } from '../src/analyses/stats/aggregate.js';
import { BIN, ROOT } from './helpers.js';

const REAL = join(ROOT, '..', 'shared', 'slogs', 'real');
const BLOCKS = join(REAL, 'block-files-bot');
const FILES = readdirSync(REAL)
  .filter((n) => /\.(slog|jsonl)$/.test(n))
  .map((n) => join(REAL, n));
const INPUTS = [...FILES, BLOCKS];

/**
 * Text that is broken rather than a rendered value: NaN, an object printed by
 * String(), a delivery or syscall whose form is missing, a raw entry, an
 * undefined where a name, a vat or a number belongs. (`undefined` as a value,
 * smallcaps `#undefined`, prints bare: SLOG-FORMAT.md, "Values".)
 */
const BROKEN = [
  /\bNaN\b/,
  /\[object Object\]/,
  /no [kv](d|sc|sr) in entry/,
  /<unintelligible/,
  /^@ /m,
  /^\/\/ crank [^\n]*undefined/m,
  /undefined <no name>|crank undefined|"undefined"|^undefined:/m,
];

function expectNotBroken(text: string, what: string): void {
  for (const pattern of BROKEN) {
    const m = pattern.exec(text);
    if (m) {
      const line = text.slice(text.lastIndexOf('\n', m.index) + 1, text.indexOf('\n', m.index)).slice(0, 200);
      throw new Error(`${what}: ${pattern} in: ${line}`);
    }
  }
}

/** The lines of a slog file or folder of per-block files, parsed; a contextual line's body (with its time). */
function entriesOf(input: string): Array<Record<string, unknown>> {
  const files = input === BLOCKS ? readdirSync(BLOCKS).sort(byChainOrder).map((n) => join(BLOCKS, n)) : [input];
  return files.flatMap((file) => {
    const raw = readFileSync(file);
    const text = (file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
    return text
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .map((o) => (typeof o.type === 'string' ? o : { ...(o.body as object), crankNum: (o.attributes as Record<string, unknown>)['crank.num'], replay: (o.attributes as Record<string, unknown>).replay }));
  });
}

function byChainOrder(a: string, b: string): number {
  const rank = (n: string): number[] => {
    const m = /^slogfile_(init|bootstrap|upgrade|block)_(?:(\d+)_)?(\d+)/.exec(n) as RegExpExecArray;
    return [['init', 'bootstrap', 'upgrade', 'block'].indexOf(m[1] as string), Number(m[2] ?? -1), Number(m[3])];
  };
  const [x, y] = [rank(a), rank(b)];
  return (x[0] as number) - (y[0] as number) || (x[1] as number) - (y[1] as number) || (x[2] as number) - (y[2] as number);
}

/**
 * The plain loop: live deliveries, syscalls and computrons. A restart (a
 * second kernel-init-start) abandons the cranks before it numbered from the
 * first crank after it on.
 */
function count(entries: Array<Record<string, unknown>>): { deliveries: number; syscalls: number; computrons: number } {
  const starts = entries.flatMap((e, i) => (e.type === 'kernel-init-start' ? [i] : []));
  const restart = starts.length > 1 ? (starts[1] as number) : Infinity;
  const firstAfter = entries.slice(restart === Infinity ? entries.length : restart).find((e) => typeof e.crankNum === 'number' && e.type === 'crank-start')?.crankNum as number | undefined;
  let deliveries = 0;
  let syscalls = 0;
  let computrons = 0;
  entries.forEach((e, i) => {
    if (e.replay === true) return;
    const abandoned = i < restart && firstAfter !== undefined && typeof e.crankNum === 'number' && e.crankNum >= firstAfter;
    if (abandoned) return;
    if (e.type === 'deliver') deliveries += 1;
    if (e.type === 'syscall') syscalls += 1;
    if (e.type === 'deliver-result') {
      const usage = (e.dr as unknown[] | undefined)?.[2] as { compute?: unknown } | null | undefined;
      if (typeof usage?.compute === 'number') computrons += usage.compute;
    }
  });
  return { deliveries, syscalls, computrons };
}

const totals = (agg: SlogAggregate): { deliveries: number; syscalls: number; computrons: number } => ({
  deliveries: agg.deliveries.count,
  syscalls: agg.syscalls.count + agg.syscalls.unanswered,
  computrons: agg.computrons ?? 0,
});

describe.each(INPUTS.map((input) => ({ input, name: input.replace(`${REAL}/`, '') })))('$name', ({ input }) => {
  it('renders with no broken text: default, --nonoise --novatstore --timing, --vatspace', async () => {
    for (const options of [{}, { nonoise: true, novatstore: true, timing: true }, { vatspace: true }]) {
      const r = await renderSlog({ inputs: [input], options });
      expect(r.badLines).toBe(0);
      expectNotBroken(r.text, JSON.stringify(options));
    }
  });

  it('top, stats and compare: no broken text; each live delivery, syscall and computron counted once', async () => {
    const top = await topOf({ inputs: [input], n: 5 });
    expectNotBroken(JSON.stringify(top.top), 'top');
    const stats = await statsOf({ inputs: [input] });
    expectNotBroken(JSON.stringify(stats.aggregate), 'stats');
    expect(totals(stats.aggregate)).toEqual(count(entriesOf(input)));
    const side = await compareSideOf({ inputs: [input], side: { slog: 'x' } });
    expect(totals(side.data.aggregate)).toEqual(totals(stats.aggregate));
  });
});

describe('what each shape says', () => {
  const render = async (file: string, options = {}): Promise<string> => (await renderSlog({ inputs: [join(REAL, file)], options })).text;

  it('a restart: marked once, the cranks run again marked, the abandoned ones counted apart', async () => {
    const text = await render('restart-replay.slog');
    expect(text.match(/^\/\/ restart$/gm)).toHaveLength(1);
    const again = text.match(/^\/\/ crank (\d+):.*\(again after restart\)$/gm) ?? [];
    // From the slog's lines: the crank-starts after the second kernel-init-start whose numbers ran before it.
    const entries = entriesOf(join(REAL, 'restart-replay.slog'));
    const restart = entries.findIndex((e, i) => i > 0 && e.type === 'kernel-init-start');
    const before = new Set(entries.slice(0, restart).filter((e) => e.type === 'crank-start').map((e) => e.crankNum as number));
    const ranAgain = entries.slice(restart).filter((e) => e.type === 'crank-start' && before.has(e.crankNum as number)).map((e) => e.crankNum as number);
    expect(ranAgain.length).toBeGreaterThan(5);
    expect(again.map((h) => Number(/crank (\d+)/.exec(h)?.[1]))).toEqual(ranAgain);
    const stats = await statsOf({ inputs: [join(REAL, 'restart-replay.slog')] });
    expect(stats.aggregate.abandoned.cranks).toBe(ranAgain.length);
    expect(stats.aggregate.replays.some((r) => r.deliveries > 0)).toBe(true);
  });

  it('replays print in vat space, marked, and --nonoise drops them', async () => {
    const text = await render('restart-replay.slog');
    expect(text).toMatch(/^start-replay: v1 7\nreplay deliver: @o\+0 <- bootstrap\(/m);
    expect(text).toMatch(/^replay send: @o-50 <- makeAndHold\(\): @p\+5$/m);
    expect(await render('restart-replay.slog', { nonoise: true })).not.toMatch(/^replay /m);
  });

  it('a slog that starts inside a crank', async () => {
    const text = await render('mid-crank-start.slog', { timing: true });
    expect(text).toMatch(/^\/\/ crank 11: v4 <no name> \(started before the slog\)$/m);
    // Its time is its crank-finish's own `seconds` (its crank-start is before the slog).
    const finish = entriesOf(join(REAL, 'mid-crank-start.slog')).find((e) => e.type === 'crank-finish' && e.crankNum === 11) as { seconds: number };
    expect(text).toMatch(new RegExp(`^crank-finish: ${Math.round(finish.seconds * 1e6)}µs crank 11$`, 'm'));
    // Its syscalls before the slog are missing, its header has no figures: top does not rank it.
    const whole = await topOf({ inputs: [join(REAL, 'mid-crank-start.slog')], n: 100 });
    const ranked = whole.top.rankings.flatMap((r) => r.cranks.map((c) => c.crankNum));
    expect(ranked).toContain(12);
    expect(ranked).not.toContain(11);
    expect(whole.top.rankings.every((r) => r.cranks.every((c) => c.header.includes('[total:')))).toBe(true);
  });

  it('a bare create-vat, a console without level, a lone crank-finish, a lone deliver-result', async () => {
    expect(await render('restart-replay.slog')).toMatch(/^create-vat: v1 <no name>$/m);
    expect(await render('console-no-level.slog')).toBe(
      '// startup\nterminate: "payment retrieved"\nconsole: kernel terminating vat v12 (failure=false)\ncrank-finish: crank 407\n\n// end of slog\n',
    );
    const stats = await statsOf({ inputs: [join(REAL, 'lone-deliver-result.slog')] });
    expect(stats.aggregate.computrons).toBe(count(entriesOf(join(REAL, 'lone-deliver-result.slog'))).computrons);
    expect(stats.aggregate.computrons).toBeGreaterThan(0);
  });

  it('2022: crank numbers and types from the entries; vatstoreGetAfter', async () => {
    const text = (await renderSlog({ inputs: [join(REAL, 'y2022-create-vat.slog')], selection: { cranks: [{ from: 9, to: 9 }] }, options: { nonoise: true } })).text;
    expect(text).toContain('// crank 9: v1 bootstrap\nstartVat: {argv: []}\n');
    const all = await render('y2022-create-vat.slog');
    expect(all).toContain("vatstoreGetAfter: '' 'vc.4.' 'vc.4.{' : [null, null]");
    expect(await render('y2022-create-vat.slog', { novatstore: true })).not.toContain('vatstoreGetAfter');
    const top = await topOf({ inputs: [join(REAL, 'y2022-create-vat.slog')], n: 3 });
    expect(top.top.rankings[0]?.cranks.every((c) => Number.isInteger(c.crankNum) && c.vatName !== '<no name>')).toBe(true);
  });

  it('the contextual and per-block forms count as the plain slog of the same run', async () => {
    const plain = await statsOf({ inputs: [join(REAL, 'chain-bot.slog')] });
    for (const input of [join(REAL, 'contextual-bot.jsonl'), BLOCKS]) {
      const other = await statsOf({ inputs: [input] });
      const { slogSpan: _a, stalls: otherStalls, ...x } = other.aggregate;
      const { slogSpan: _b, stalls: plainStalls, ...y } = plain.aggregate;
      expect(x).toEqual(y);
      // A stall is told as it comes: in the bootstrap run, whose run-start the contextual writer drops, it has no run yet.
      const noRun = (stalls: typeof plainStalls) => stalls?.list.map(({ runNum: _r, ...rest }) => rest);
      expect(noRun(otherStalls)).toEqual(noRun(plainStalls));
    }
  });
});

describe('--nonoise on a chain slog: a header per busy block', () => {
  it('every block once: busy ones with a header, empty ones counted in the next header; no bookkeeping lines', async () => {
    const file = join(REAL, 'chain-A.slog');
    const text = (await renderSlog({ inputs: [file], options: { nonoise: true } })).text;
    expect(text).not.toMatch(/^cosmic-swingset-(begin-block|end-block|run-start|run-finish|timer-poll|commit-block|after-commit-stats)|^kernel-stats/m);
    const headers = [...text.matchAll(/^\/\/ block (\d+) \S+: runs ([^,]*), (\d+) cranks[^\n]*?(?: \((\d+) empty blocks? before\))?(?: \(not finished\))?(?: \(again after restart\))?$/gm)];
    // Blocks as the slog has them: its begin-blocks and the bootstrap block; and the cranks each holds.
    const entries = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Record<string, unknown>);
    const blocks: Array<{ height: unknown; cranks: number }> = [];
    let open: { height: unknown; cranks: number } | undefined;
    for (const e of entries) {
      if (e.type === 'cosmic-swingset-begin-block' || e.type === 'cosmic-swingset-bootstrap-block-start') {
        if (open) blocks.push(open);
        open = { height: e.blockHeight ?? 'bootstrap', cranks: 0 };
      } else if (e.type === 'crank-start' && open) open.cranks += 1;
      else if ((e.type === 'cosmic-swingset-end-block-finish' || e.type === 'cosmic-swingset-bootstrap-block-finish') && open) {
        blocks.push(open);
        open = undefined;
      }
    }
    // Each busy block's header counts the heights of the empty blocks since the busy one before (a block run again after a restart once).
    const expected: number[] = [];
    let empty = new Set<unknown>();
    for (const b of blocks) {
      if (b.cranks === 0) empty.add(b.height);
      else {
        expected.push(empty.size);
        empty = new Set();
      }
    }
    expect(blocks.some((b, i) => b.cranks === 0 && blocks.findIndex((o) => o.height === b.height) !== i)).toBe(true);
    expect(headers.map((h) => Number(h[4] ?? 0))).toEqual(expected);
    expect(headers.map((h) => Number(h[3]))).toEqual(blocks.filter((b) => b.cranks > 0).map((b) => b.cranks));
  });
});

describe('pipes that are not stdin', () => {
  it('compare <(zcat a.gz) <(cat b): both sides read as streams', () => {
    const slog = join(ROOT, 'fixtures', 'slogs', 'a-local-3.slog');
    const r = spawnSync('bash', ['-c', `"${process.execPath}" "${BIN}" compare --format json <(gzip -c "${slog}" | zcat) <(cat "${slog}")`], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const json = JSON.parse(r.stdout) as { sections: Array<{ rows: Array<{ delta: number }> }> };
    expect(json.sections.every((s) => s.rows.every((row) => row.delta === 0))).toBe(true);
  });
});
