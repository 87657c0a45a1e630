/**
 * `--fail-on` thresholds: the grammar, the boundary (exactly at the limit
 * passes, over it fails), and every form on real slogs on both sides of its
 * boundary, with the values recomputed by a plain loop (test/compare-loop.ts).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompareJson } from '../src/analyses/compare/compare.js';
import { exceeds, METRICS, parseThreshold, THRESHOLD_GRAMMAR, ThresholdError } from '../src/analyses/compare/thresholds.js';
import { loopSide, percentile, sum, type LoopSide } from './compare-loop.js';
import { ROOT, runCli, slogPath } from './helpers.js';
import { runInProcess } from './run-main.js';

describe('parsing', () => {
  it('reads metric, scope and limit', () => {
    expect(parseThreshold('computrons:+5%')).toMatchObject({
      metric: { name: 'computrons', kind: 'computrons' },
      scope: {},
      limit: { amount: 5, percent: true },
    });
    expect(parseThreshold('syscalls:+0')).toMatchObject({ metric: { kind: 'syscalls' }, limit: { amount: 0, percent: false } });
    expect(parseThreshold('time.p95:+20%')).toMatchObject({ metric: { name: 'time.p95', kind: 'time', stat: 'p95' } });
    expect(parseThreshold('time:+12.5')).toMatchObject({ metric: { name: 'time.total', stat: 'total' }, limit: { amount: 12.5 } });
    expect(parseThreshold('syscalls.vatstoreGet,vat=zoe,method=makeInvitation:+3')).toMatchObject({
      metric: { name: 'syscalls.vatstoreGet', kind: 'syscalls', subtype: 'vatstoreGet' },
      scope: { vat: 'zoe', method: 'makeInvitation' },
      limit: { amount: 3, percent: false },
    });
    expect(parseThreshold('cranks.routing:+1')).toMatchObject({ metric: { kind: 'cranks', subtype: 'routing' } });
    // The limit is after the last colon: a method may contain one.
    expect(parseThreshold('deliveries,method=a:b:+1').scope).toEqual({ method: 'a:b' });
    // A vat name may hold a space inside it (only around the parts is one refused).
    expect(parseThreshold('deliveries,vat=my vat:+1').scope).toEqual({ vat: 'my vat' });
    expect(parseThreshold('cranks.abandoned:+0')).toMatchObject({ metric: { kind: 'cranks', subtype: 'abandoned' } });
    expect(parseThreshold('replays,vat=v1:+2%')).toMatchObject({ metric: { kind: 'replays' }, scope: { vat: 'v1' }, limit: { amount: 2, percent: true } });
  });

  const BAD = [
    'computrons',
    'computrons:',
    'computrons:5x',
    'computrons:-5%',
    'computron:+5%',
    'time.p42:+1%',
    'syscalls,vat:+0',
    'syscalls,vat=:+0',
    'syscalls,color=red:+0',
    'syscalls,vat=v1,vat=v2:+0',
    'cranks,method=foo:+0',
    'cranks.routing,vat=v1:+0',
    ':+5%',
    'syscalls.:+0',
    '+5%',
    // The limit is +N or +N% (docs/compare.md): the + is required, no spaces.
    'cranks:5',
    'cranks:5%',
    'time:12.5',
    'cranks: +0',
    'cranks:+0 ',
    'cranks:+ 0',
    'cranks:+5 %',
    ' cranks:+0',
    'cranks :+0',
    'syscalls.vatstoreGet , vat=zoe:+3',
    'syscalls,vat = zoe:+3',
    'syscalls,vat= zoe:+3',
    // Counted for the whole slog / per vat only: a scope they cannot honor is refused.
    'cranks.abandoned,vat=v1:+0',
    'replays,method=foo:+0',
  ];

  it.each(BAD)('refuses %j', (expr) => {
    expect(() => parseThreshold(expr)).toThrow(ThresholdError);
  });

  it('a malformed --fail-on exits 2 with one line giving the grammar\'s form, before reading any slog', async () => {
    // The first on a real process (its exit status), the rest in process.
    const results = await Promise.all(BAD.map((expr, i) => (i === 0 ? runCli : runInProcess)(['compare', '--fail-on', expr, 'no-such-base.slog', 'no-such-head.slog'])));
    results.forEach((r, i) => {
      expect(r.status, BAD[i]).toBe(2);
      // One line: the grammar's form, and where the whole grammar is.
      const lines = r.stderr.split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(new RegExp(`^slogulate: --fail-on '${(BAD[i] as string).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}': `));
      expect(lines[0]?.endsWith('; expected METRIC[,vat=VAT][,method=METHOD]:LIMIT (see slogulate compare --help)')).toBe(true);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(r.stdout).toBe('');
    });
  });
});

describe('the metrics: docs/compare.md, the grammar text and the parser agree', () => {
  const docs = readFileSync(join(ROOT, 'docs', 'compare.md'), 'utf8');
  // The `- \`METRIC\`: ...` item of the Thresholds section, up to the next item.
  const item = /^- `METRIC`: ([\s\S]*?)^- /m.exec(docs.slice(docs.indexOf('## Thresholds')))?.[1] ?? '';
  const documented = [...item.matchAll(/`([a-z][a-zA-Z0-9.-]*(?:\.TYPE)?)`/g)].map((m) => m[1] as string).filter((m) => !m.includes('vatstore'));
  const grammar = THRESHOLD_GRAMMAR.split('  LIMIT:')[0] ?? '';
  const inGrammar = [...grammar.matchAll(/\b([a-z]+(?:\.[a-zA-Z0-9-]+)*)\b(?=[,\s()]|$)/g)].map((m) => m[1] as string);
  const concrete = (m: string): string => m.replace('.TYPE', '.send');

  it('docs/compare.md lists every metric the parser takes, and nothing else', () => {
    expect(item).not.toBe('');
    expect(new Set(documented)).toEqual(new Set(METRICS));
  });

  it('the grammar text (help compare, a bad --fail-on) lists every one too', () => {
    for (const m of METRICS) expect(inGrammar, m).toContain(m);
  });

  it.each([...METRICS])('%s is accepted, with a +N and a +N% limit', (m) => {
    expect(parseThreshold(`${concrete(m)}:+0`).metric.kind).toBe(m.split('.')[0]);
    expect(parseThreshold(`${concrete(m)}:+5%`).limit).toEqual({ amount: 5, percent: true });
  });

  it('a metric that is not in the list is refused', () => {
    for (const m of ['crank', 'cranks.all', 'replay', 'replays.count', 'deliveries.send', 'time.p42', 'blocks.busy.mean']) {
      expect(() => parseThreshold(`${m}:+0`), m).toThrow(ThresholdError);
    }
  });
});

describe('the boundary', () => {
  it('+N: an increase of exactly N passes, more fails', () => {
    expect(exceeds(10, 13, { amount: 3, percent: false })).toBe(false);
    expect(exceeds(10, 13, { amount: 2, percent: false })).toBe(true);
    expect(exceeds(10, 13.5, { amount: 3.4, percent: false })).toBe(true);
    expect(exceeds(10, 10, { amount: 0, percent: false })).toBe(false);
    expect(exceeds(10, 11, { amount: 0, percent: false })).toBe(true);
    expect(exceeds(10, 2, { amount: 0, percent: false })).toBe(false);
  });

  it('+N%: exactly N percent passes, more fails (no rounding from a division)', () => {
    expect(exceeds(200, 210, { amount: 5, percent: true })).toBe(false);
    expect(exceeds(200, 210, { amount: 4.99, percent: true })).toBe(true);
    expect(exceeds(8, 11, { amount: 37.5, percent: true })).toBe(false);
    expect(exceeds(8, 11, { amount: 37.49, percent: true })).toBe(true);
    // (0.3 - 0.1) / 0.1 * 100 is 199.99999999999997 in floating point; 200% is the limit.
    expect(exceeds(0.1, 0.3, { amount: 200, percent: true })).toBe(false);
    expect(exceeds(3, 3, { amount: 0, percent: true })).toBe(false);
  });

  it('+N% on a base of 0: any head above 0 fails', () => {
    expect(exceeds(0, 0, { amount: 5, percent: true })).toBe(false);
    expect(exceeds(0, 1, { amount: 1000, percent: true })).toBe(true);
  });
});

// ---- every form on real slogs ---------------------------------------------------

type Json = Record<string, unknown>;

/** A metric's value by the plain loop (vat given by ID or name). */
function loopValue(side: LoopSide, metric: string, vatArg?: string, method?: string): number {
  const vat = vatArg === undefined ? undefined : ([...side.vatNames].find(([, n]) => n === vatArg)?.[0] ?? vatArg);
  const keyed = (m: Map<string, number>, parts: (key: string) => string[]): number =>
    sum(
      [...m]
        .filter(([k]) => {
          const [v, me] = parts(k);
          return (vat === undefined || v === vat) && (method === undefined || me === method);
        })
        .map(([, n]) => n),
    );
  const split = (k: string): string[] => k.split(' ');
  if (metric === 'cranks') return vat === undefined ? side.cranks.all : (side.cranksByVat.get(vat) ?? 0);
  if (metric === 'cranks.delivery') return vat === undefined ? side.cranks.delivery : (side.cranksByVat.get(vat) ?? 0);
  if (metric === 'cranks.routing') return side.cranks.routing;
  if (metric === 'deliveries') {
    return method === undefined ? keyed(side.deliveriesByVat, (k) => [k]) : keyed(side.deliveriesByVatMethod, split);
  }
  if (metric === 'computrons') {
    return method === undefined ? keyed(side.computronsByVat, (k) => [k]) : keyed(side.computronsByVatMethod, split);
  }
  if (metric.startsWith('syscalls')) {
    const type = metric.startsWith('syscalls.') ? metric.slice('syscalls.'.length) : undefined;
    return sum(
      [...side.syscallsByVatMethodType]
        .filter(([k]) => {
          const [v, me, t] = split(k);
          return (vat === undefined || v === vat) && (method === undefined || me === method) && (type === undefined || t === type);
        })
        .map(([, n]) => n),
    );
  }
  const stat = metric === 'time' ? 'total' : metric.slice('time.'.length);
  const micros =
    vat === undefined && method === undefined
      ? side.deliveryMicros
      : method === undefined
        ? (side.deliveryMicrosByVat.get(vat as string) ?? [])
        : vat === undefined
          ? (side.deliveryMicrosByMethod.get(method) ?? [])
          : (side.deliveryMicrosByVatMethod.get(`${vat} ${method}`) ?? []);
  if (stat === 'total') return sum(micros);
  if (stat === 'mean') return micros.length ? sum(micros) / micros.length : 0;
  if (stat === 'max') return micros.length ? Math.max(...micros) : 0;
  return percentile(micros, Number(stat.slice(1)));
}

interface Form {
  metric: string;
  vat?: string;
  method?: string;
  percent: boolean;
}

const FORMS: Form[] = [
  { metric: 'cranks', percent: false },
  { metric: 'cranks.delivery', percent: true },
  { metric: 'cranks.routing', percent: false },
  { metric: 'cranks', vat: 'v7', percent: false },
  { metric: 'deliveries', percent: true },
  { metric: 'deliveries', vat: 'bob', percent: false },
  { metric: 'deliveries', vat: 'v1', method: 'bringOutYourDead', percent: true },
  { metric: 'deliveries', method: 'bringOutYourDead', percent: false },
  { metric: 'syscalls', percent: false },
  { metric: 'syscalls', percent: true },
  { metric: 'syscalls.vatstoreGet', percent: true },
  { metric: 'syscalls.send', percent: false },
  { metric: 'syscalls', vat: 'v7', percent: false },
  { metric: 'syscalls', method: 'bringOutYourDead', percent: true },
  { metric: 'syscalls.vatstoreGetNextKey', vat: 'alice', method: 'bringOutYourDead', percent: false },
  { metric: 'time', percent: true },
  { metric: 'time.mean', vat: 'v7', percent: true },
  { metric: 'time.p95', percent: false },
  { metric: 'time.p50', vat: 'v1', method: 'notify', percent: true },
  { metric: 'time.total', method: 'startVat', percent: true },
  { metric: 'time.p90', percent: true },
  { metric: 'time.p99', vat: 'bob', percent: false },
  { metric: 'time.max', percent: false },
];

const COMPUTRON_FORMS: Form[] = [
  { metric: 'computrons', percent: true },
  { metric: 'computrons', percent: false },
  { metric: 'computrons', vat: 'v2', percent: false },
  { metric: 'computrons', vat: 'bob', method: 'bringOutYourDead', percent: true },
  { metric: 'computrons', method: 'startVat', percent: false },
];

const exprOf = (f: Form, limit: string): string =>
  `${f.metric}${f.vat === undefined ? '' : `,vat=${f.vat}`}${f.method === undefined ? '' : `,method=${f.method}`}:+${limit}${f.percent ? '%' : ''}`;

/** Three decimals, rounded up or down. */
const up = (x: number): number => Math.ceil(x * 1000 - 1e-9) / 1000;
const down = (x: number): number => Math.floor(x * 1000 + 1e-9) / 1000;

interface Case {
  form: Form;
  /** The order in which the head is above the base (or equal). */
  files: [string, string];
  base: number;
  head: number;
  pass: string;
  fail?: string;
}

/** For each form: a limit exactly at (or just over) the change, and one just under it. */
function cases(forms: Form[], x: [string, LoopSide], y: [string, LoopSide]): Case[] {
  return forms.map((form) => {
    let bv = loopValue(x[1], form.metric, form.vat, form.method);
    let hv = loopValue(y[1], form.metric, form.vat, form.method);
    let files: [string, string] = [x[0], y[0]];
    if (hv < bv) {
      [bv, hv] = [hv, bv];
      files = [y[0], x[0]];
    }
    const change = form.percent ? (bv === 0 ? Infinity : ((hv - bv) / bv) * 100) : hv - bv;
    const c: Case = { form, files, base: bv, head: hv, pass: '' };
    if (change === 0) {
      c.pass = exprOf(form, '0');
      return c;
    }
    expect(change).not.toBe(Infinity);
    const exact = Number.isInteger(change);
    c.pass = exprOf(form, exact ? `${change}` : up(change).toFixed(3));
    c.fail = exprOf(form, exact ? `${change - (change >= 1 ? 1 : change / 2)}` : Math.max(0, down(change) - 0.001).toFixed(3));
    return c;
  });
}

async function run(files: [string, string], exprs: string[]): Promise<{ status: number | null; json: CompareJson }> {
  const r = await runInProcess(['compare', '--format', 'json', ...exprs.flatMap((e) => ['--fail-on', e]), ...files]);
  expect(r.stderr.split('\n')[0] ?? '', r.stderr).not.toMatch(/^slogulate: (?!\d+ of \d+ thresholds? exceeded)/);
  return { status: r.status, json: JSON.parse(r.stdout) as CompareJson };
}

describe('every form on real slogs, on both sides of its boundary', () => {
  let dir: string;
  let local: [string, LoopSide];
  let xs: [string, LoopSide];
  let xsPrefix: [string, LoopSide];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'slogulate-thresholds-'));
    local = ['a-local-3.slog', loopSide(readFileSync(slogPath('a-local-3'), 'utf8'))];
    const xsText = readFileSync(slogPath('a-xs-3'), 'utf8');
    xs = ['a-xs-3.slog', loopSide(xsText)];
    // The first part of the real XS slog, up to the end of crank 150: fewer computrons.
    const lines = xsText.split('\n');
    const end = lines.findIndex((l) => {
      if (!l.includes('"crank-finish"')) return false;
      return (JSON.parse(l) as Json).crankNum === 150;
    });
    const prefix = join(dir, 'a-xs-3-prefix.slog');
    writeFileSync(prefix, `${lines.slice(0, end + 1).join('\n')}\n`);
    xsPrefix = [prefix, loopSide(readFileSync(prefix, 'utf8'))];
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function check(all: Case[]): Promise<void> {
    const byFiles = new Map<string, Case[]>();
    for (const c of all) byFiles.set(c.files.join('\u0000'), [...(byFiles.get(c.files.join('\u0000')) ?? []), c]);
    let tripped = 0;
    await Promise.all(
      [...byFiles.values()].map(async (group) => {
        const files = (group[0] as Case).files;
        const [passing, failing] = await Promise.all([run(files, group.map((c) => c.pass)), run(files, group.flatMap((c) => c.fail ?? []))]);
        expect(passing.status).toBe(0);
        passing.json.thresholds.forEach((t, i) => {
          const c = group[i] as Case;
          expect(t.expression).toBe(c.pass);
          expect(t.exceeded, c.pass).toBe(false);
          expect(t.base, c.pass).toBeCloseTo(c.base, 6);
          expect(t.head, c.pass).toBeCloseTo(c.head, 6);
        });
        const withFail = group.filter((c) => c.fail !== undefined);
        expect(failing.status).toBe(withFail.length ? 1 : 0);
        failing.json.thresholds.forEach((t, i) => {
          expect(t.expression).toBe(withFail[i]?.fail);
          expect(t.exceeded, t.expression).toBe(true);
        });
        expect(failing.json.exceeded).toBe(withFail.length);
        tripped += withFail.length;
      }),
    );
    // Nearly every form has a change to trip on (an unchanged metric only checks the pass side).
    expect(tripped).toBeGreaterThanOrEqual(all.length - 3);
  }

  it('counts and times: a-local-3 and a-xs-3', async () => {
    await check(cases(FORMS, local, xs));
  });

  it('computrons: the first half of a-xs-3 and all of it', async () => {
    await check(cases(COMPUTRON_FORMS, xsPrefix, xs));
  });

  it('the text report lists the exceeded thresholds and the verdict is the last line', async () => {
    const r = await runCli(['compare', '--fail-on', 'syscalls:+0', '--fail-on', 'cranks.routing:+0', 'a-local-3.slog', 'a-xs-3.slog']);
    expect(r.status).toBe(1);
    const lines = r.stdout.trimEnd().split('\n');
    const more = xs[1].syscalls - local[1].syscalls;
    expect(lines.find((l) => l.startsWith('syscalls '))).toMatch(new RegExp(`^syscalls\\s+${local[1].syscalls}\\s+${xs[1].syscalls}\\s+\\+${more}\\s.*\\+0\\s+EXCEEDED$`));
    expect(lines.find((l) => l.startsWith('cranks.routing '))).toMatch(/\s+ok$/);
    expect(lines.at(-1)).toBe('1 of 2 thresholds exceeded: syscalls:+0');
    // Swapped, the syscalls went down: nothing exceeded.
    const back = await runInProcess(['compare', '--fail-on', 'syscalls:+0', 'a-xs-3.slog', 'a-local-3.slog']);
    expect(back.status).toBe(0);
  });

  it('a scope that matches nothing in either slog is a usage error (exit 2)', async () => {
    const r = await runInProcess(['compare', '--fail-on', 'deliveries,vat=nosuchvat:+0', 'a-local-3.slog', 'a-xs-3.slog']);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('slogulate: --fail-on: deliveries,vat=nosuchvat matches nothing in either slog\n');
  });
});
