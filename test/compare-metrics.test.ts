/**
 * `compare`'s metrics are declared once (src/analyses/compare/metrics.ts) and
 * both the report's sections and `--fail-on` read them from there: every
 * declared metric can be named in `--fail-on`, every one declared in a
 * section has a row there, and a threshold on it reads that row's values.
 * An unknown metric is one usage error that lists the names close to it.
 *
 * The values themselves are checked against plain loops over the slogs'
 * lines in test/compare.test.ts, test/thresholds.test.ts and
 * test/chain-view.test.ts; here, that the two readers of a declaration agree.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompareJson, CompareRow } from '../src/analyses/compare/compare.js';
import { familyMember, isFamily, METRIC_DECLARATIONS, takesScope, type MetricDeclaration } from '../src/analyses/compare/metrics.js';
import { SECTIONS } from '../src/analyses/compare/sections.js';
import { closeMetricNames, parseThreshold, THRESHOLD_GRAMMAR, ThresholdError } from '../src/analyses/compare/thresholds.js';
import { chainAHead, ROOT } from './helpers.js';
import { runInProcess } from './run-main.js';

/** The metrics `--fail-on` takes that the report has no row for (the report shows total, mean and p95 of delivery times). */
const THRESHOLD_ONLY = ['time.p50', 'time.p90', 'time.p99', 'time.max'];

/** A family's member to try: a syscall type both slogs below make. */
const nameOf = (d: MetricDeclaration): string => (isFamily(d) ? familyMember(d, 'vatstoreGet') : d.name);

describe('the declarations', () => {
  it('every metric is shown in a declared section, or is one of the threshold-only ones', () => {
    const sectionIDs = SECTIONS.map((s) => s.id);
    for (const d of METRIC_DECLARATIONS) {
      for (const id of d.sections) expect(sectionIDs, d.name).toContain(id);
    }
    expect(METRIC_DECLARATIONS.filter((d) => d.sections.length === 0).map((d) => d.name)).toEqual(THRESHOLD_ONLY);
    // And every section shows some metric.
    for (const id of sectionIDs) expect(METRIC_DECLARATIONS.some((d) => d.sections.includes(id)), id).toBe(true);
  });

  it.each(METRIC_DECLARATIONS.map((d) => [d.name, d] as const))('%s is named in --fail-on, with every scope it takes, and refuses the others', (_, d) => {
    for (const name of [nameOf(d), ...(d.aliases ?? [])]) {
      const t = parseThreshold(`${name}:+0`);
      expect(t.metric.declaration).toBe(d);
      expect(t.metric.kind).toBe(d.name.split('.')[0]);
    }
    for (const [field, scope] of [
      ['vat', 'vat=v1'],
      ['method', 'method=deposit'],
    ] as const) {
      const expr = `${nameOf(d)},${scope}:+0`;
      if (takesScope(d, field)) expect(parseThreshold(expr).scope[field], expr).toBe(scope.split('=')[1]);
      else expect(() => parseThreshold(expr), expr).toThrow(ThresholdError);
    }
  });
});

describe('on real slogs, every declared metric has its row, and --fail-on reads it', () => {
  // restart-replay.slog: an abandoned execution, replays, computrons; the head of chain-A.slog: chain blocks.
  const base = join(ROOT, '..', 'shared', 'slogs', 'real', 'restart-replay.slog');
  let dir: string;
  let head: string;
  let report: CompareJson;
  let thresholds: CompareJson['thresholds'];
  const named = METRIC_DECLARATIONS.flatMap((d) => [nameOf(d), ...(d.aliases ?? [])].map((name) => ({ d, name })));

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'slogulate-compare-metrics-'));
    head = chainAHead(dir);
    const plain = await runInProcess(['compare', '--growth', '--format', 'json', base, head]);
    expect(plain.stderr).toBe('');
    report = JSON.parse(plain.stdout) as CompareJson;
    const gated = await runInProcess(['compare', '--format', 'json', ...named.flatMap(({ name }) => ['--fail-on', `${name}:+0`]), base, head]);
    // Only growth's warning that the base (restart-replay: no rounds, no blocks) has no growth to measure, counted as 0.
    const unexpected = gated.stderr.split('\n').filter((l) => l !== '' && !/has no benchmark rounds or chain blocks to measure growth over: its growth counts as 0$/.test(l));
    expect(unexpected.join('\n')).not.toMatch(/--fail-on/);
    expect([0, 1]).toContain(gated.status);
    thresholds = (JSON.parse(gated.stdout) as CompareJson).thresholds;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the report has a row for each metric declared in a section, in that section', () => {
    for (const d of METRIC_DECLARATIONS.filter((m) => m.sections.length > 0)) {
      const sections = report.sections.filter((s) => d.sections.includes(s.id));
      expect(sections.map((s) => s.id), d.name).toEqual(d.sections);
      const row = sections.flatMap((s) => s.rows).find((r) => r.key === nameOf(d));
      expect(row, d.name).toBeDefined();
      if (!isFamily(d)) expect({ subtype: row?.subtype, stat: row?.stat }, d.name).toEqual({ subtype: d.row?.subtype, stat: d.row?.stat });
    }
    // The abandoned execution's row shows only where a side has one: here it does.
    expect(report.sections[0]?.rows.map((r) => r.key)).toContain('cranks.abandoned');
  });

  it("each threshold reads its row's base and head (an alias the row of what it stands for)", () => {
    const rows = new Map<string, CompareRow>(report.sections.flatMap((s) => s.rows.map((r) => [r.key, r] as const)));
    expect(thresholds.map((t) => t.expression)).toEqual(named.map(({ name }) => `${name}:+0`));
    thresholds.forEach((t, i) => {
      const { d } = named[i] as (typeof named)[number];
      expect(t.metric).toBe(nameOf(d));
      if (d.sections.length === 0) return;
      const row = rows.get(t.metric);
      expect([t.base, t.head], t.metric).toEqual([row?.base, row?.head]);
    });
    // The threshold-only statistics read real figures too, ordered as statistics are.
    const value = (name: string): number => thresholds.find((t) => t.metric === name)?.head ?? NaN;
    expect(value('time.p50')).toBeGreaterThan(0);
    expect(value('time.p50')).toBeLessThanOrEqual(value('time.p90'));
    expect(value('time.p90')).toBeLessThanOrEqual(value('time.p95'));
    expect(value('time.p95')).toBeLessThanOrEqual(value('time.p99'));
    expect(value('time.p99')).toBeLessThanOrEqual(value('time.max'));
  });
});

describe('an unknown metric', () => {
  it.each([
    ['computron', 'computrons'],
    ['Cranks', 'cranks, cranks.delivery, cranks.routing or cranks.abandoned'],
    ['crank', 'cranks, cranks.delivery, cranks.routing or cranks.abandoned'],
    ['syscall.send', 'syscalls.send or syscalls'],
    ['replay', 'replays'],
    ['blocks.busy.mean', 'blocks.busy, '],
    ['time.p42', 'time.p50, time.p90, time.p95, time.p99, '],
  ])('%s: one usage error line that lists the close names (%s)', async (metric, close) => {
    const r = await runInProcess(['compare', '--fail-on', `${metric}:+0`, 'no-such-base.slog', 'no-such-head.slog']);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    const [first, ...rest] = r.stderr.split('\n');
    const said = `slogulate: --fail-on '${metric}:+0': unknown metric "${metric}" (did you mean ${close}`;
    // A whole list, or the closest names first.
    if (close.endsWith(', ')) expect(first?.startsWith(said), first).toBe(true);
    else expect(first?.startsWith(`${said}?)`), first).toBe(true);
    // Then the grammar's form and where all of it is, on the same line.
    expect(first).toMatch(/\?\); expected METRIC\[,vat=VAT\]\[,method=METHOD\]:LIMIT \(see slogulate compare --help\)$/);
    expect(first?.endsWith(`${THRESHOLD_GRAMMAR.split('\n')[0]} (see slogulate compare --help)`)).toBe(true);
    expect(rest).toEqual(['']);
  });

  it('nothing close: the error says so without a guess', () => {
    expect(closeMetricNames('zzzz')).toEqual([]);
    expect(() => parseThreshold('zzzz:+0')).toThrow(/^unknown metric "zzzz"$/);
  });

  it('every close name is a metric --fail-on takes', () => {
    for (const word of ['computron', 'crank', 'syscall.send', 'time.p42', 'blocks.foo', 'deliveries.send', 'replays.count', 'time.mea']) {
      const close = closeMetricNames(word);
      expect(close.length, word).toBeGreaterThan(0);
      for (const name of close) expect(() => parseThreshold(`${name.replace('.TYPE', '.send')}:+0`), `${word}: ${name}`).not.toThrow();
    }
  });
});
