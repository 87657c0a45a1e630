/**
 * `slogulate top` (in process, runInProcess, but for stdin and one usage
 * error on a real process): every ranking checked against the reference `--timing`
 * render, whose delivery crank header lines the test sorts itself (ties in
 * crank order), the way users did it by hand.
 */
import { describe, expect, it } from 'vitest';
import { TopN } from '../src/analyses/common/top-n.js';
import { readSlog, referenceText, runCli, SLOG_NAMES } from './helpers.js';
import { runInProcess } from './run-main.js';

type Key = 'total' | 'local' | 'syscall' | 'syscall-fraction' | 'syscall-count' | 'computrons';

interface Header {
  line: string;
  crankNum: number;
  vatID: string;
  figures: Record<Key, number | undefined>;
}

const HEADER =
  /^\/\/ crank (\d+): (\S+) .*? \[total:(\d+)µs local:(\d+)µs ([\d.]+)% syscall:(\d+)µs ([\d.]+)%\] (\d+) syscalls(?: (\d+) computrons)?$/;

/** The finished delivery cranks' header lines of the reference `--timing` render, in crank order. */
function timingHeaders(slog: string): Header[] {
  const lines = referenceText(slog, 'timing')
    .split('\n')
    .filter((l) => l.startsWith('// crank ') && l.includes('[total:'));
  return lines.map((line) => {
    const m = HEADER.exec(line);
    if (!m) throw new Error(`unexpected header ${line}`);
    return {
      line,
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
      expect(ranking.cranks.map((c) => c.header)).toEqual(expected.map((h) => h.line));
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
        return `${plain} ${h.line.slice(h.line.indexOf('[total:'))}`;
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
