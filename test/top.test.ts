/**
 * `slogulate top` (in process, runInProcess, but for stdin and one usage
 * error on a real process): every ranking checked against the reference `--timing`
 * render, whose delivery crank header lines the test sorts itself (ties in
 * crank order), the way users did it by hand, each line with what the crank
 * did (its first delivery's method or kind, read from the slog's JSON);
 * the rankings by a part of the time split against the split a plain loop
 * computes (test/parts-expected.ts).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TopN } from '../src/analyses/common/top-n.js';
import { readSlog, referenceText, ROOT, runCli, SLOG_NAMES, slogPath } from './helpers.js';
import { expectedFigures, loopFacts, loopPart, type LoopFacts } from './parts-expected.js';
import { runInProcess } from './run-main.js';
import { methodOf } from './slog-facts.js';
import { slogEntries } from './time-split-loop.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const CHAIN_A = join(ROOT, '..', 'shared', 'slogs', 'real', 'chain-A.slog');

/**
 * What each crank did, from the slog's JSON: its first live delivery's method
 * (a message) or kind, then `+kind` for each other kind of live delivery in it
 * (not `message`).
 */
function cranksDid(entries: readonly Json[]): Map<number, string> {
  const out = new Map<number, string>();
  const kinds = new Map<number, string[]>();
  for (const e of entries) {
    if (e.type !== 'deliver' || e.replay === true) continue;
    const kd = e.kd as [string, unknown, { methargs: { body: string } }];
    const kind = String(e.dispatch ?? kd[0]);
    const seen = kinds.get(e.crankNum);
    if (seen === undefined) {
      out.set(e.crankNum, kind === 'message' ? methodOf(kd[2].methargs) : kind);
      kinds.set(e.crankNum, [kind]);
    } else if (kind !== 'message' && !seen.includes(kind)) {
      seen.push(kind);
      out.set(e.crankNum, `${out.get(e.crankNum)}+${kind}`);
    }
  }
  return out;
}

/** A header with what the crank did after the vat's name (`// crank 9: v2 vatAdmin startVat [...]`). */
const withDid = (header: string, did: string | undefined): string =>
  did === undefined ? header : header.replace(/^(\/\/ crank \d+: \S+ \S+)/, `$1 ${did}`);

type Key = 'total' | 'local' | 'syscall' | 'syscall-fraction' | 'syscall-count' | 'computrons';

interface Header {
  /** The reference --timing header. */
  header: string;
  /** top's line: that header with what the crank did. */
  line: string;
  did: string | undefined;
  crankNum: number;
  vatID: string;
  figures: Record<Key, number | undefined>;
}

const HEADER =
  /^\/\/ crank (\d+): (\S+) .*? \[total:(\d+)µs local:(\d+)µs ([\d.]+)% syscall:(\d+)µs ([\d.]+)%\] (\d+) syscalls(?: (\d+) computrons)?$/;

/** The finished delivery cranks' header lines of the reference `--timing` render, in crank order. */
function timingHeaders(slog: string): Header[] {
  const did = cranksDid(slogEntries(slogPath(slog)));
  const lines = referenceText(slog, 'timing')
    .split('\n')
    .filter((l) => l.startsWith('// crank ') && l.includes('[total:'));
  return lines.map((line) => {
    const m = HEADER.exec(line);
    if (!m) throw new Error(`unexpected header ${line}`);
    return {
      header: line,
      line: withDid(line, did.get(Number(m[1]))),
      did: did.get(Number(m[1])),
      crankNum: Number(m[1]),
      vatID: m[2] as string,
      figures: {
        total: Number(m[3]),
        local: Number(m[4]),
        syscall: Number(m[6]),
        'syscall-fraction': Number(m[7]),
        'syscall-count': Number(m[8]),
        computrons: m[9] === undefined ? undefined : Number(m[9]),
      },
    };
  });
}

/** The top n by key: a stable sort (ties keep crank order) of the cranks that have the figure. */
function expectedTop(headers: Header[], key: Key, n: number): string[] {
  return headers
    .filter((h) => h.figures[key] !== undefined)
    .sort((a, b) => (b.figures[key] as number) - (a.figures[key] as number))
    .slice(0, n)
    .map((h) => h.line);
}

/** `top` text output: sections (title, header lines) separated by blank lines. */
function sections(stdout: string): Array<{ title: string; lines: string[] }> {
  expect(stdout.endsWith('\n')).toBe(true);
  return stdout
    .slice(0, -1)
    .split('\n\n')
    .map((s) => {
      const [title, ...lines] = s.split('\n');
      return { title: title as string, lines };
    });
}

const ALL_KEYS: Key[] = ['total', 'local', 'syscall', 'syscall-fraction', 'syscall-count', 'computrons'];

describe.each(SLOG_NAMES)('%s', (slog) => {
  const headers = timingHeaders(slog);
  const hasComputrons = headers.some((h) => h.figures.computrons !== undefined);

  it('ranks by every key the slog has data for, top 5 by default', async () => {
    const r = await runInProcess(['top', `${slog}.slog`]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const keys = ALL_KEYS.filter((k) => k !== 'computrons' || hasComputrons);
    const got = sections(r.stdout);
    expect(got.map((s) => s.title)).toEqual(
      keys.map(() => expect.stringMatching(new RegExp(`^Top 5 of ${headers.length} delivery cranks by .+:$`))),
    );
    keys.forEach((key, i) => expect(got[i]?.lines, key).toEqual(expectedTop(headers, key, 5)));
  });

  it('--by and -n: each ranking, ties in crank order', async () => {
    const n = 40;
    const args = ALL_KEYS.flatMap((k) => ['--by', k]);
    const r = await runInProcess(['top', ...args, '-n', String(n), `${slog}.slog`]);
    expect(r.status).toBe(0);
    const got = sections(r.stdout);
    expect(got).toHaveLength(ALL_KEYS.length);
    ALL_KEYS.forEach((key, i) => {
      const note = key === 'computrons' && !hasComputrons ? ['(no crank reports computrons: not an XS worker slog?)'] : [];
      expect(got[i]?.lines, key).toEqual([...note, ...expectedTop(headers, key, n)]);
    });
    // The syscall-count ranking has ties, and they are in crank order.
    const counts = expectedTop(headers, 'syscall-count', n).map((l) => headers.find((h) => h.line === l) as Header);
    const ties = counts.filter((h, i) => i > 0 && h.figures['syscall-count'] === counts[i - 1]?.figures['syscall-count']);
    expect(ties.length).toBeGreaterThan(0);
    for (let i = 1; i < counts.length; i++) {
      const [a, b] = [counts[i - 1] as Header, counts[i] as Header];
      if (a.figures['syscall-count'] === b.figures['syscall-count']) expect(a.crankNum).toBeLessThan(b.crankNum);
    }
  });

  it('-n larger than the number of cranks lists every ranked crank', async () => {
    const r = await runInProcess(['top', '--by', 'total', '--by', 'syscall-fraction', '-n', '100000', `${slog}.slog`]);
    const got = sections(r.stdout);
    expect(got[0]?.title).toBe(`Top ${headers.length} of ${headers.length} delivery cranks by total time:`);
    expect(got[0]?.lines).toEqual(expectedTop(headers, 'total', 100000));
    expect(got[1]?.lines).toEqual(expectedTop(headers, 'syscall-fraction', 100000));
    expect(new Set(got[0]?.lines)).toEqual(new Set(headers.map((h) => h.line)));
  });

  it('--json gives the same rankings as data', async () => {
    const r = await runInProcess(['top', '--json', '-n', '7', `${slog}.slog`]);
    expect(r.status).toBe(0);
    const json = JSON.parse(r.stdout) as {
      slog: string;
      ranked: number;
      hasComputrons: boolean;
      rankings: Array<{ key: Key; cranks: Array<Record<string, unknown>> }>;
    };
    expect(json.slog).toBe(`${slog}.slog`);
    expect(json.ranked).toBe(headers.length);
    expect(json.hasComputrons).toBe(hasComputrons);
    expect(json.rankings.map((k) => k.key)).toEqual(ALL_KEYS.filter((k) => k !== 'computrons' || hasComputrons));
    for (const ranking of json.rankings) {
      const expected = expectedTop(headers, ranking.key, 7).map((l) => headers.find((h) => h.line === l) as Header);
      expect(ranking.cranks.map((c) => c.header)).toEqual(expected.map((h) => h.header));
      expect(ranking.cranks.map((c) => c.line)).toEqual(expected.map((h) => h.line));
      expect(ranking.cranks.map((c) => c.method)).toEqual(expected.map((h) => h.did));
      ranking.cranks.forEach((c, i) => {
        const h = expected[i] as Header;
        expect(c.crankNum).toBe(h.crankNum);
        expect(c.vatID).toBe(h.vatID);
        expect(c.totalMicros).toBe(h.figures.total);
        expect(c.localMicros).toBe(h.figures.local);
        expect(c.syscallMicros).toBe(h.figures.syscall);
        expect(c.syscallPercent).toBe(h.figures['syscall-fraction']);
        expect(c.syscallCount).toBe(h.figures['syscall-count']);
        expect(c.computrons).toBe(h.figures.computrons);
      });
    }
  });

  it('--cranks and --vat rank only the selected cranks', async () => {
    const vat = 'v1';
    const from = headers[Math.floor(headers.length / 3)]?.crankNum as number;
    const to = from + 120;
    const selected = headers.filter((h) => h.vatID === vat && h.crankNum >= from && h.crankNum <= to);
    expect(selected.length).toBeGreaterThan(3);
    const r = await runInProcess(['top', '--vat', vat, '--cranks', `${from}-${to}`, '--by', 'local', '--by', 'syscall-count', '-n', '3', `${slog}.slog`]);
    expect(r.stderr).toBe('');
    const got = sections(r.stdout);
    expect(got[0]?.title).toBe(`Top 3 of ${selected.length} delivery cranks (cranks ${from}-${to} and vat ${vat}) by local time (outside syscalls):`);
    expect(got[0]?.lines).toEqual(expectedTop(selected, 'local', 3));
    expect(got[1]?.lines).toEqual(expectedTop(selected, 'syscall-count', 3));
  });
});

const PART_KEYS = ['page-in', 'vat', 'pipe', 'snapshot', 'kernel', 'gc'] as const;
type PartKey = (typeof PART_KEYS)[number];

/** The delivery cranks top ranks by a part, best first (ties in crank order), by the loop's split: those where it is known and above 0. */
function expectedPartTop(entries: readonly Json[], key: PartKey, n: number): Array<{ crankNum: number; facts: LoopFacts; value: number }> {
  const routing = new Set(entries.filter((e) => e.type === 'crank-start' && e.crankType === 'routing').map((e) => e.crankNum as number));
  return [...loopFacts(entries)]
    .filter(([crankNum]) => !routing.has(crankNum))
    .map(([crankNum, facts]) => ({ crankNum, facts, value: loopPart(facts, key) }))
    .filter((c): c is { crankNum: number; facts: LoopFacts; value: number } => c.value !== undefined)
    .sort((a, b) => b.value - a.value || a.crankNum - b.crankNum)
    .slice(0, n);
}

/** Checks `top --by` each part key's sections against the loop; returns the crank numbers of each. */
function checkPartSections(stdout: string, entries: readonly Json[], n: number): Map<PartKey, number[]> {
  const did = cranksDid(entries);
  const got = sections(stdout);
  expect(got).toHaveLength(PART_KEYS.length);
  const out = new Map<PartKey, number[]>();
  PART_KEYS.forEach((key, i) => {
    const expected = expectedPartTop(entries, key, n);
    const { title, lines } = got[i] as { title: string; lines: string[] };
    expect(title, key).toMatch(new RegExp(`^Top ${expected.length} of \\d+ delivery cranks by ${key === 'gc' ? 'GC' : key === 'snapshot' ? 'heap snapshot' : key} time`));
    if (expected.length === 0) expect(lines).toEqual([`(no crank has ${key} time known and above 0)`]);
    else
      expect(lines.map((l) => Number(/^\/\/ crank (\d+):/.exec(l)?.[1])), key).toEqual(expected.map((c) => c.crankNum));
    expected.forEach((c, j) => {
      const line = lines[j] as string;
      // What it did after the vat's name, then the split (parts of 0 left out).
      const doing = did.get(c.crankNum);
      expect(line, key).toContain(`${doing === undefined ? '' : ` ${doing}`} ${expectedFigures(c.facts)} `);
    });
    out.set(key, expected.map((c) => c.crankNum));
  });
  return out;
}

describe('top --by a part of the time split', () => {
  it.each(SLOG_NAMES)('%s: every part, against the loop', async (slog) => {
    const r = await runInProcess(['top', ...PART_KEYS.flatMap((k) => ['--by', k]), '-n', '12', `${slog}.slog`]);
    expect([r.status, r.stderr]).toEqual([0, '']);
    const got = checkPartSections(r.stdout, slogEntries(slogPath(slog)), 12);
    // Local workers have no pipe and no snapshot; the XS slog has both.
    if (slog === 'a-xs-3') for (const key of ['pipe', 'snapshot', 'vat', 'gc'] as const) expect(got.get(key)?.length, key).toBe(12);
    else expect([got.get('pipe')?.length, got.get('snapshot')?.length]).toEqual([0, 0]);
  });

  it('chain-A: crank 808 ranks first by snapshot, 1419 first by page-in, neither among the first 5 by vat', async () => {
    const r = await runInProcess(['top', ...PART_KEYS.flatMap((k) => ['--by', k]), '-n', '5', CHAIN_A]);
    expect([r.status, r.stderr]).toEqual([0, '']);
    const got = checkPartSections(r.stdout, slogEntries(CHAIN_A), 5);
    expect(got.get('vat')).not.toContain(808);
    expect(got.get('vat')).not.toContain(1419);
    expect(got.get('snapshot')?.[0]).toBe(808);
    expect(got.get('page-in')?.[0]).toBe(1419);
    // By local time (all but syscalls), as before: 808 and 1419 rank high there.
    const local = await runInProcess(['top', '--by', 'local', '-n', '5', CHAIN_A]);
    const nums = sections(local.stdout)[0]?.lines.map((l) => Number(/crank (\d+)/.exec(l)?.[1]));
    expect(nums).toContain(808);
    expect(nums).toContain(1419);
  });

  it('the default rankings stay the six of before', async () => {
    const r = await runInProcess(['top', '--json', 'a-local-3.slog']);
    const json = JSON.parse(r.stdout) as { rankings: Array<{ key: string }> };
    expect(json.rankings.map((k) => k.key)).toEqual(['total', 'local', 'syscall', 'syscall-fraction', 'syscall-count']);
  });
});

describe('top: edge cases', () => {
  it('--annotations: the headers carry annotation names and crank labels, as in the annotated render', async () => {
    const annotated = referenceText('a-local-3', 'annotated-nonoise-novatstore').split('\n');
    const timing = timingHeaders('a-local-3');
    const r = await runInProcess(['top', '--annotations', '../annotations/a-local-3.annot.json', '--cranks', '106,161,220', '--by', 'total', '-n', '3', 'a-local-3.slog']);
    expect(r.stderr).toBe('');
    const expected = timing
      .filter((h) => [106, 161, 220].includes(h.crankNum))
      .sort((a, b) => (b.figures.total as number) - (a.figures.total as number))
      .map((h) => {
        const plain = annotated.find((l) => l.startsWith(`// crank ${h.crankNum}: `)) as string;
        expect(plain).toMatch(/ --- Start of round #\d$/);
        return `${withDid(plain, h.did)} ${h.line.slice(h.line.indexOf('[total:'))}`;
      });
    expect(sections(r.stdout)[0]?.lines).toEqual(expected);
  });

  it('a slog without computrons has no computrons ranking unless asked, and then says why it is empty', async () => {
    const r = await runInProcess(['top', '--by', 'computrons', 'a-local-3.slog']);
    expect(r.status).toBe(0);
    const got = sections(r.stdout);
    expect(got).toHaveLength(1);
    expect(got[0]?.title).toMatch(/^Top 0 of \d+ delivery cranks by computrons:$/);
    expect(got[0]?.lines).toEqual(['(no crank reports computrons: not an XS worker slog?)']);
  });

  it('a selection that matches nothing: a message on stderr, nothing on stdout, status 0', async () => {
    const r = await runInProcess(['top', '--cranks', '500000-', 'a-xs-3.slog']);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('slogulate: a-xs-3.slog: no cranks match cranks 500000-\n');
    const j = await runInProcess(['top', '--json', '--vat', 'nobody', 'a-xs-3.slog']);
    expect(j.status).toBe(0);
    expect(j.stderr).toBe('slogulate: a-xs-3.slog: no cranks match vat nobody\n');
    const json = JSON.parse(j.stdout) as { ranked: number; rankings: Array<{ cranks: unknown[] }> };
    expect(json.ranked).toBe(0);
    expect(json.rankings.every((k) => k.cranks.length === 0)).toBe(true);
  });

  it('only routing cranks selected: says there are no delivery cranks', async () => {
    const headers = referenceText('a-local-3', 'timing').split('\n').filter((l) => /^\/\/ crank \d+: routing/.test(l));
    const routing = Number(/crank (\d+)/.exec(headers[0] as string)?.[1]);
    const r = await runInProcess(['top', '--cranks', String(routing), 'a-local-3.slog']);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`slogulate: a-local-3.slog: no finished delivery cranks in cranks ${routing}\n`);
  });

  it('an unfinished crank at the end of the slog is not ranked', async () => {
    // The slog cut right after the biggest crank's start and its first syscalls.
    const headers = timingHeaders('b-local-5');
    const biggest = expectedTop(headers, 'total', 1)[0] as string;
    const crankNum = Number(/crank (\d+)/.exec(biggest)?.[1]);
    const lines = readSlog('b-local-5').toString('utf8').split('\n');
    const start = lines.findIndex((l) => l.includes('"crank-start"') && JSON.parse(l).crankNum === crankNum);
    const cut = `${lines.slice(0, start + 3).join('\n')}\n`;
    const before = headers.filter((h) => h.crankNum < crankNum);
    const r = await runCli(['top', '--by', 'total', '-n', '3', '-'], { stdin: cut });
    expect(r.status).toBe(0);
    expect(sections(r.stdout)[0]?.lines).toEqual(expectedTop(before, 'total', 3));
  });

  it('bad --by or -n is a usage error', async () => {
    for (const args of [['--by', 'speed'], ['-n', '0'], ['-n', 'x']]) {
      // The first on a real process: its exit status.
      const r = await (args[0] === '--by' ? runCli : runInProcess)(['top', ...args, 'a-local-3.slog']);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
    }
  });

  it('TopN keeps the best N, equal items in arrival order', () => {
    const top = new TopN<[number, string]>(3, (a, b) => b[0] - a[0]);
    for (const item of [
      [1, 'a'],
      [5, 'b'],
      [5, 'c'],
      [2, 'd'],
      [5, 'e'],
      [9, 'f'],
    ] as Array<[number, string]>) {
      top.offer(item);
    }
    expect(top.list().map((x) => x[1])).toEqual(['f', 'b', 'c']);
    expect(new TopN<number>(0, (a, b) => b - a).offer(1)).toBe(false);
  });
});
