/**
 * `slogulate kref KREF`: the life of a kref of the real slogs, checked
 * against a plain loop over their JSON lines (where it first shows, which
 * resolve settled it, when its exporter was told to drop and retire it,
 * every crank that names it) and against the reference render (each listed
 * line is a line the render prints in that crank).
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { FIXTURES, referenceText, ROOT, runCli, slogPath } from './helpers.js';
import { runInProcess } from './run-main.js';
import { slogFacts } from './slog-facts.js';

/** Crank number -> the lines the reference render prints under its header. */
function renderedCranks(slog: string): Map<number, Set<string>> {
  const cranks = new Map<number, Set<string>>();
  let current: Set<string> | undefined;
  for (const line of referenceText(slog, 'default').split('\n')) {
    const header = /^\/\/ crank (\d+):/.exec(line);
    if (header) cranks.set(Number(header[1]), (current = new Set()));
    else current?.add(line);
  }
  return cranks;
}

const SAMPLES: Record<string, string[]> = {
  // a send's result, a whole resolution, a root, a device from bootstrap, a kernel message's result,
  // an object inside a resolution, a device returned by invoke
  'a-local-3': ['kp44', 'ko30', 'ko21', 'kd30', 'kp40', 'ko38', 'kd32'],
  // a promise that is a send target and an argument, one the kernel rejected, a dropped and retired object
  'b-local-5': ['kp43', 'kp83', 'ko33', 'ko31'],
  'a-xs-3': ['kp50', 'ko35'],
};

describe.each(Object.entries(SAMPLES))('kref on %s', (slog, krefs) => {
  const facts = slogFacts(slog);
  const rendered = renderedCranks(slog);
  const vatLabel = (vatID: string): string => `${vatID} ${facts.vatNames.get(vatID) ?? '<no name>'}`;

  it.each(krefs)('%s: made, resolved, dropped as the slog says; every crank naming it, lines as rendered', async (kref) => {
    const r = await runInProcess(['kref', kref, slogPath(slog)]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const [summary, ...blocks] = r.stdout.trimEnd().split('\n\n');
    const head = (summary as string).split('\n');
    const kind = { o: 'object', p: 'promise', d: 'device' }[kref[1] as 'o' | 'p' | 'd'];
    expect(head[0]).toMatch(new RegExp(`^${kref} \\(${kind}\\): \\S`));

    // Created where it first shows.
    const first = facts.entries.find(({ e }) => JSON.stringify(e).includes(`"${kref}"`));
    const by = first?.routing ? 'the kernel' : vatLabel(first?.e.vatID ?? facts.entries.find((p) => p.crank === first?.crank && p.e.vatID)?.e.vatID);
    expect(head[1]).toMatch(new RegExp(`^created: crank ${first?.crank} by ${by}: `));

    if (kind === 'promise') {
      const resolved = facts.resolvedBy.get(kref);
      const notify = [...facts.delivers.values()].find((d) => d.kd[0] === 'notify' && d.kd[1][0][0] === kref);
      if (resolved) {
        const how = resolved.rejected ? 'rejected' : 'fulfilled';
        expect(head).toContain(`resolved: crank ${resolved.crank} by ${vatLabel(resolved.vat)} (${how})`);
      } else {
        expect(head).toContain(`resolved: by the kernel (${notify?.kd[1][0][1].state as string})`);
      }
    }
    if (kind === 'object') {
      const told = (what: string): string => {
        const at = [...facts.delivers].find(([, d]) => d.kd[0] === what && d.kd[1].includes(kref));
        return at ? `crank ${at[0]}` : 'not in this slog';
      };
      expect(head).toContain(`dropped: ${told('dropExports')}`);
      expect(head).toContain(`retired: ${told('retireExports')}`);
      const exporter = facts.exporter.get(kref);
      if (exporter) expect(head.some((l) => l.startsWith(`exported by: ${vatLabel(exporter)}`))).toBe(true);
    }

    // Every non-routing crank whose delivery, syscalls or clist name it, and only those.
    const naming = new Set<number>();
    for (const { e, crank, routing } of facts.entries) {
      if (routing || crank < 0) continue;
      const part = e.type === 'deliver' ? e.kd : e.type === 'syscall' ? e.ksc : e.type === 'syscall-result' ? e.ksr : e.type === 'clist' ? e.kobj : undefined;
      if (part !== undefined && JSON.stringify(part).includes(`"${kref}"`)) naming.add(crank);
    }
    expect(head.at(-1)).toBe(`mentioned in ${naming.size} crank${naming.size === 1 ? '' : 's'}`);
    const listed = blocks.map((b) => Number(/^\/\/ crank (\d+):/.exec(b)?.[1]));
    expect(listed).toEqual([...naming].sort((a, b) => a - b));
    for (const block of blocks) {
      const [header, ...lines] = block.split('\n');
      const crank = Number(/^\/\/ crank (\d+):/.exec(header as string)?.[1]);
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) {
        const m = /^\[([a-zA-Z ,]+)\] (.*)$/.exec(line);
        expect(m, line).not.toBeNull();
        expect(rendered.get(crank)?.has(m?.[2] as string), `${line} in crank ${crank}`).toBe(true);
        expect(m?.[2]).toMatch(new RegExp(`@${kref}(?!\\d)|<BIG>`));
      }
    }
  });
});

describe('kref options and errors', () => {
  it('--nonoise leaves out clist and subscribe lines', async () => {
    const all = await runInProcess(['kref', 'kp44', slogPath('a-local-3')]);
    const quiet = await runInProcess(['kref', '--nonoise', 'kp44', slogPath('a-local-3')]);
    expect(all.stdout).toContain('[clist] ');
    expect(all.stdout).toContain('[subscribed] ');
    expect(quiet.stdout).not.toMatch(/\[(clist|subscribed)\]/);
    const kept = all.stdout.split('\n').filter((l) => !/^\[(clist|subscribed)\]/.test(l));
    expect(quiet.stdout.split('\n').filter((l) => l.startsWith('['))).toEqual(kept.filter((l) => l.startsWith('[')));
  });

  it('takes a name from --annotations, and prints names in its lines', async () => {
    const annot = `${FIXTURES}/annotations/a-local-3.annot.json`;
    const byName = await runInProcess(['kref', '--annotations', annot, 'bobAccount', slogPath('a-local-3')]);
    const byKref = await runInProcess(['kref', '--annotations', annot, 'ko30', slogPath('a-local-3')]);
    expect(byName.status).toBe(0);
    expect(byName.stdout).toBe(byKref.stdout);
    expect(byName.stdout.split('\n')[0]).toBe('ko30 (object): bobAccount (automatic name: openAccount-1/r)');
    expect(byName.stdout).toContain('[target] send: <bobAccount> <- deposit(10): <deposit-1/rp>');
  });

  it('fails with one line for a kref the slog does not have (1) or a word that is no kref (2)', async () => {
    const missing = await runCli(['kref', 'kp999', slogPath('a-local-3')]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toBe(`slogulate: kp999 does not appear in ${slogPath('a-local-3')}\n`);
    const bad = await runInProcess(['kref', 'nonsense', slogPath('a-local-3')]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe('slogulate: "nonsense" is not a kref (like ko12, kp40, kd3)\n');
  });
});

describe('kref on a real slog whose vats have no names', () => {
  it('names a vat nothing names `v1 <no name>`, as crank headers do (not `v1 v1`)', async () => {
    const r = await runInProcess(['kref', 'kp42', join(ROOT, '..', 'shared', 'slogs', 'real', 'restart-replay.slog')]);
    expect(r.status).toBe(0);
    const head = r.stdout.split('\n\n')[0]?.split('\n') ?? [];
    expect(head[1]).toMatch(/^created: crank 18 by v1 <no name>: /);
    expect(head[2]).toBe('resolved: crank 35 by v6 bob (fulfilled)');
    const headers = r.stdout.split('\n').filter((l) => l.startsWith('// crank '));
    expect(headers.some((l) => l.includes('v1 <no name>'))).toBe(true);
  });
});

describe('kref in a 2021 message ({method, args, result})', () => {
  it('a kref among a delivered message\'s arguments is an argument there, as in today\'s shape', async () => {
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'slogulate-kref-2021-'));
    try {
      const file = join(dir, 'old.slog');
      writeFileSync(
        file,
        [
          '{"type":"crank-start","crankType":"delivery","crankNum":5,"vatID":"v2","time":10,"monotime":1}',
          '{"type":"deliver","crankNum":5,"vatID":"v2","deliveryNum":1,"kd":["message","ko22",{"method":"deposit","args":{"body":"[{\\"@qclass\\":\\"slot\\",\\"index\\":0},10]","slots":["ko40"]},"result":"kp46"}],"vd":["message","o+0",{"method":"deposit","args":{"body":"[{\\"@qclass\\":\\"slot\\",\\"index\\":0},10]","slots":["o-50"]},"result":"p-60"}],"time":10.1,"monotime":1}',
          '{"type":"deliver-result","crankNum":5,"vatID":"v2","deliveryNum":1,"dr":["ok",null,null],"time":10.4,"monotime":1}',
          '{"type":"crank-finish","crankNum":5,"crankType":"delivery","time":10.5,"monotime":1}',
          '',
        ].join('\n'),
      );
      const r = await runInProcess(['kref', 'ko40', file]);
      expect(r.status).toBe(0);
      expect(r.stdout).toContain('[argument] deliver: @ko22 <- deposit(@ko40, 10): @kp46');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
