/**
 * `slogulate flow`: every line of the per-vat flow of the real slogs checked
 * against facts read with a plain loop over their JSON lines
 * (test/slog-facts.ts): who sent each delivered message and in which crank,
 * where each notified promise was sent and which crank's resolve settled it,
 * and each crank's sends and resolves, in order.
 */
import { describe, expect, it } from 'vitest';
import { FIXTURES, runCli, slogPath, SLOG_NAMES } from './helpers.js';
import { runInProcess } from './run-main.js';
import { slogFacts, type SlogFacts } from './slog-facts.js';

interface Section {
  vat: string;
  header: { total: number; delivery: number; notify: number; other: number };
  cranks: Array<{ crankNum: number; line: string; actions: string[] }>;
}

/** Splits the flow text into vat sections, cranks and their action lines. */
function parseFlow(text: string): Section[] {
  const sections: Section[] = [];
  for (const block of text.trimEnd().split('\n\n')) {
    const [head, ...lines] = block.split('\n');
    const m = /^(.+): (\d+) cranks? \((\d+) delivery, (\d+) notify(?:, (\d+) other)?\):$/.exec(head as string);
    expect(m, head).not.toBeNull();
    const section: Section = {
      vat: m?.[1] as string,
      header: { total: Number(m?.[2]), delivery: Number(m?.[3]), notify: Number(m?.[4]), other: Number(m?.[5] ?? 0) },
      cranks: [],
    };
    for (const line of lines) {
      const crank = /^(\d+) /.exec(line);
      if (crank) section.cranks.push({ crankNum: Number(crank[1]), line, actions: [] });
      else section.cranks.at(-1)?.actions.push(line);
    }
    sections.push(section);
  }
  return sections;
}

/** The names the flow should print, worked out from the plain-loop facts. */
function expectedNames(facts: SlogFacts) {
  const vat = (vatID: string | undefined): string => (vatID === undefined ? 'the kernel' : facts.vatNames.get(vatID) ?? vatID);
  const message = (method: string, count: number): string =>
    facts.methodTotals.get(method) === 1 ? method : `${method}-${count}`;
  const promise = (kp: string): string => {
    const m = facts.byResult.get(kp);
    return m ? `${message(m.method, m.count)}/rp` : `?${kp}`;
  };
  return { vat, message, promise };
}

describe.each(SLOG_NAMES)('flow %s', (slog) => {
  const facts = slogFacts(slog);
  const { vat, message, promise } = expectedNames(facts);
  let sections: Section[];

  it('lists each vat once, with its message and notify deliveries, in crank order', async () => {
    const r = await runInProcess(['flow', slogPath(slog)]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    sections = parseFlow(r.stdout);
    expect(new Set(sections.map((s) => s.vat)).size).toBe(sections.length);
    for (const s of sections) {
      const mine = [...facts.delivers].filter(([, d]) => vat(d.vat) === s.vat);
      const deliveries = mine.filter(([, d]) => d.kd[0] === 'message').map(([c]) => c);
      const notifies = mine.filter(([, d]) => d.kd[0] === 'notify').map(([c]) => c);
      const others = mine
        .filter(([c, d]) => d.kd[0] !== 'message' && d.kd[0] !== 'notify' && facts.actions.has(c))
        .map(([c]) => c);
      expect(s.header).toEqual({
        total: deliveries.length + notifies.length + others.length,
        delivery: deliveries.length,
        notify: notifies.length,
        other: others.length,
      });
      const listed = s.cranks.map((c) => c.crankNum);
      expect(listed).toEqual([...deliveries, ...notifies, ...others].sort((a, b) => a - b));
    }
    const listedCount = sections.reduce((n, s) => n + s.cranks.length, 0);
    expect(listedCount).toBeGreaterThan(40);
  });

  it("says which vat's send sent each delivered message, and in which crank", () => {
    let checked = 0;
    for (const s of sections) {
      for (const c of s.cranks) {
        const d = facts.delivers.get(c.crankNum);
        if (d?.kd[0] !== 'message') continue;
        const result = d.kd[2].result as string;
        const sent = facts.byResult.get(result);
        expect(sent, c.line).toBeDefined();
        const name = message(sent?.method as string, sent?.count as number);
        const from = sent?.vat === undefined ? 'sent by the kernel' : `sent from ${vat(sent.vat)} in ${sent.crank}`;
        const aborted = facts.aborted.has(c.crankNum) ? ' (aborted: the kernel undid this crank)' : '';
        expect(c.line).toBe(`${c.crankNum} deliver ${name} (${from})${aborted}`);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('says where each notified promise was sent, and which crank resolved it', () => {
    let checked = 0;
    for (const s of sections) {
      for (const c of s.cranks) {
        const d = facts.delivers.get(c.crankNum);
        if (d?.kd[0] !== 'notify') continue;
        expect(d.kd[1]).toHaveLength(1); // these slogs notify one promise at a time
        const kp = d.kd[1][0][0] as string;
        const sent = facts.byResult.get(kp);
        const made = sent?.vat === undefined ? 'sent by the kernel' : `sent in ${sent.crank}`;
        const by = facts.resolvedBy.get(kp);
        const result = by ? `result from ${vat(by.vat)} in ${by.crank}` : 'result from the kernel';
        expect(c.line).toBe(`${c.crankNum} notify ${promise(kp)} (${made}, ${result})`);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it("lists each crank's sends and resolves in order, sends by target vat", () => {
    for (const s of sections) {
      for (const c of s.cranks) {
        const ksc = facts.aborted.has(c.crankNum) ? [] : facts.actions.get(c.crankNum) ?? [];
        const expected = ksc.flatMap((call) => {
          if (call[0] === 'resolve') return (call[2] as string[][]).map(([kp]) => `resolve ${promise(kp as string)}`);
          const target = call[1] as string;
          const to = target.startsWith('kp') ? promise(target) : vat(facts.exporter.get(target));
          const sent = facts.byResult.get(call[2].result) as { method: string; count: number };
          return [`${to} <- ${message(sent.method, sent.count)}`];
        });
        expect(c.actions, c.line).toEqual(expected.length ? expected : ['(no intervat action)']);
      }
    }
  });
});

describe('flow options', () => {
  it('--cranks keeps the cranks in the range', async () => {
    const facts = slogFacts('a-local-3');
    const r = await runInProcess(['flow', '--cranks', '100-130', slogPath('a-local-3')]);
    expect(r.status).toBe(0);
    const listed = parseFlow(r.stdout).flatMap((s) => s.cranks.map((c) => c.crankNum));
    const expected = [...facts.delivers]
      .filter(([c, d]) => c >= 100 && c <= 130 && (d.kd[0] === 'message' || d.kd[0] === 'notify'))
      .map(([c]) => c);
    expect([...listed].sort((a, b) => a - b)).toEqual(expected);
  });

  it('--vat keeps one vat (by ID or name)', async () => {
    const byId = await runInProcess(['flow', '--vat', 'v6', slogPath('b-local-5')]);
    const byName = await runInProcess(['flow', '--vat', 'alice', slogPath('b-local-5')]);
    expect(byId.stdout).toBe(byName.stdout);
    const sections = parseFlow(byId.stdout);
    expect(sections.map((s) => s.vat)).toEqual(['alice']);
  });

  it('names from --annotations win: vat names, kref names, crank labels', async () => {
    const annot = `${FIXTURES}/annotations/a-local-3.annot.json`;
    const r = await runInProcess(['flow', '--annotations', annot, slogPath('a-local-3')]);
    expect(r.status).toBe(0);
    const sections = parseFlow(r.stdout);
    expect(sections.map((s) => s.vat)).toContain('carol (dynamic)');
    // The file names kp46 (the second openAccount's result) openAccount-1/rp.
    expect(r.stdout).toContain('\n42 deliver openAccount-1 (sent from bootstrap in 40)\n');
    expect(r.stdout).toContain('\n45 notify openAccount-1/rp (sent in 40, result from bob in 42)\n');
    expect(r.stdout).toMatch(/\n106 notify .* \/\/ Start of round #1\n/);
  });

  it('says so when nothing matches', async () => {
    const r = await runCli(['flow', '--cranks', '100000-', slogPath('a-local-3')]);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`slogulate: ${slogPath('a-local-3')}: no cranks match cranks 100000-\n`);
  });
});
