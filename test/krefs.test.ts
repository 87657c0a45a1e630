/**
 * The kref model and its automatic names on hand-made slog lines for the
 * cases the bundled slogs do not have (promises passed in arguments,
 * promises inside resolutions and their chains, sends without a result,
 * pipelined sends, an aborted crank, a device returned by invoke, legacy
 * capdata), the compact kref ids and rows, and the memory per kref.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { AutoNames } from '../src/analyses/flow/auto-names.js';
import { FlowCollector, FlowNames } from '../src/analyses/flow/flow.js';
import { emptyAnnotations } from '../src/model/annotations.js';
import { CrankAssembler } from '../src/model/assembler.js';
import { compareKrefIds, formatKref, krefId } from '../src/model/kref-ids.js';
import { KrefRows } from '../src/model/kref-rows.js';
import { KrefModel, Origin, type CrankFacts } from '../src/model/krefs.js';
import { readEntries, type Line as SlogEntry } from './slog-lines.js';
import { VatNames } from '../src/model/vats.js';
import { ROOT } from './helpers.js';

const sc = (body: string, slots: string[] = []) => ({ body, slots });
const msg = (body: string, slots: string[], result: string | null) => ({ methargs: sc(body, slots), result });
const start = (crankNum: number, vatID?: string, crankType = 'delivery', message?: unknown): SlogEntry => ({
  type: 'crank-start',
  crankNum,
  crankType,
  ...(vatID ? { vatID } : {}),
  ...(message ? { message } : {}),
});
const finish = (crankNum: number): SlogEntry => ({ type: 'crank-finish', crankNum });
const deliver = (vatID: string, kd: unknown[], vd?: unknown[]): SlogEntry => ({ type: 'deliver', vatID, kd, ...(vd ? { vd } : {}) });
const syscall = (vatID: string, ksc: unknown[]): SlogEntry => ({ type: 'syscall', vatID, ksc });
const ok = (vatID: string, value: unknown = null): SlogEntry => ({ type: 'syscall-result', vatID, ksr: ['ok', value] });

const FOO = '#["foo",["&0","&1",{"brand":"$2.Alleged: brand"}]]';
const BOOT = '#["bootstrap",[{"bob":"$0.Alleged: root"},{"timer":"$1.Alleged: device"}]]';
const BAR = '#["bar",[]]';

/** A slog with the cases the real ones lack, crank by crank. */
const SLOG: SlogEntry[] = [
  { type: 'kernel-init-start' },
  { type: 'create-vat', vatID: 'v1', name: 'boot' },
  { type: 'create-vat', vatID: 'v2', name: 'bob' },
  { type: 'create-vat', vatID: 'v3', name: 'carol' },
  // 0: the kernel sends bootstrap (a device under its name, a vat root)
  start(0, undefined, 'routing', { type: 'send', target: 'ko1', msg: msg(BOOT, ['ko2', 'kd1'], 'kp1') }),
  finish(0),
  // 1: boot sends, passes promises and a new object, pipelines, resolves with a structure
  start(1, 'v1'),
  deliver('v1', ['message', 'ko1', msg(BOOT, ['ko2', 'kd1'], 'kp1')], ['message', 'o+0', msg(BOOT, ['o-50', 'd-70'], 'p-60')]),
  syscall('v1', ['send', 'ko2', msg(FOO, ['kp10', 'kp11', 'ko10'], 'kp12')]),
  ok('v1'),
  syscall('v1', ['send', 'ko2', msg(BAR, [], null)]),
  ok('v1'),
  syscall('v1', ['send', 'kp12', msg('#["baz",[]]', [], 'kp13')]),
  ok('v1'),
  syscall('v1', ['send', 'ko3', msg('#["quit",[]]', [], 'kp20')]),
  ok('v1'),
  { type: 'clist', mode: 'export', vatID: 'v1', kobj: 'ko11', vobj: 'o+5' },
  syscall('v1', ['resolve', 'v1', [['kp1', false, sc('#{"pair":["$0.Alleged: a","$1.Alleged: b"],"p":"&2"}', ['ko11', 'ko12', 'kp14'])]]]),
  ok('v1'),
  syscall('v1', ['send', 'ko2', msg('#["foo",[]]', [], 'kp30')]),
  ok('v1'),
  finish(1),
  // 2: bob gets foo (its root), resolves its result to a promise
  start(2, 'v2'),
  deliver('v2', ['message', 'ko2', msg(FOO, ['kp10', 'kp11', 'ko10'], 'kp12')], ['message', 'o+0', msg(FOO, ['p-1', 'p-2', 'o-3'], 'p-4')]),
  syscall('v2', ['resolve', 'v2', [['kp12', false, sc('#"&0"', ['kp15'])]]]),
  ok('v2'),
  finish(2),
  // 3: the send without a result; 4: one no vat sent
  start(3, 'v2'),
  deliver('v2', ['message', 'ko2', msg(BAR, [], null)]),
  finish(3),
  start(4, 'v2'),
  deliver('v2', ['message', 'ko2', msg(BAR, [], null)]),
  // a chain of promises, each in the resolution of the one before; a legacy body
  syscall('v2', [
    'resolve',
    'v2',
    [
      ['kp15', false, sc('#"&0"', ['kp16'])],
      ['kp16', false, sc('#"&0"', ['kp17'])],
      ['kp17', false, sc('#"&0"', ['kp18'])],
      ['kp18', false, sc('#"&0"', ['kp19'])],
      ['kp13', false, sc('{"x":{"@qclass":"slot","iface":"Alleged: x","index":0}}', ['ko13'])],
    ],
  ]),
  ok('v2'),
  finish(4),
  // 5: carol resolves quit, then exits with a failure: the kernel undoes the crank
  start(5, 'v3'),
  deliver('v3', ['message', 'ko3', msg('#["quit",[]]', [], 'kp20')]),
  syscall('v3', ['exit', 'v3', true, sc('#"bye"')]),
  ok('v3'),
  syscall('v3', ['resolve', 'v3', [['kp20', false, sc('#"#undefined"')]]]),
  ok('v3'),
  { type: 'terminate', vatID: 'v3', shouldReject: true, info: sc('#"bye"') },
  { type: 'deliver-result', vatID: 'v3', dr: ['ok', null, null] },
  finish(5),
  // 6: a device hands out a device node
  start(6, 'v2'),
  syscall('v2', ['invoke', 'kd1', 'getThing', sc('#[]')]),
  ok('v2', sc('#"$0.Alleged: device"', ['kd2'])),
  finish(6),
  // 7: the kernel rejected quit's result; 8, 9: boot told to drop and retire ko11
  start(7, 'v1'),
  deliver('v1', ['notify', [['kp20', { state: 'rejected', data: sc('#{"#error":"vat terminated","name":"Error"}') }]]]),
  finish(7),
  start(8, 'v1'),
  deliver('v1', ['dropExports', ['ko11']]),
  finish(8),
  start(9, 'v1'),
  deliver('v1', ['retireExports', ['ko11']]),
  finish(9),
  // 10: a delivery other than a message or notify that sends
  start(10, 'v2'),
  deliver('v2', ['startVat', sc('#{}')]),
  syscall('v2', ['send', 'ko1', msg('#["hello",[]]', [], 'kp31')]),
  ok('v2'),
  finish(10),
];

function read(entries: SlogEntry[]) {
  const model = new KrefModel();
  const vats = new VatNames();
  const facts = new Map<number, CrankFacts>();
  const flow = new FlowCollector();
  const assembler = new CrankAssembler({
    entry: (e) => model.entry(e),
    crank: (crank) => {
      const f = model.addCrank(crank);
      facts.set(crank.crankNum, f);
      flow.add(crank, f);
    },
  });
  readEntries(entries).forEach((e, i) => {
    vats.observe(e);
    assembler.push(e, i + 1);
  });
  assembler.end();
  const names = new AutoNames(model, vats);
  return { model, vats, facts, names, flow };
}

describe('kref ids and rows', () => {
  it('code krefs as numbers and back', () => {
    for (const kref of ['ko0', 'ko12', 'kp40', 'kd3', 'kp536870911']) expect(formatKref(krefId(kref))).toBe(kref);
    for (const bad of ['k', 'ko', 'kx1', 'o+5', 'ko1a', 'kp536870912', 12, null, undefined]) expect(krefId(bad)).toBe(-1);
    const sorted = ['kp2', 'ko10', 'kd1', 'ko9', 'kp1'].map(krefId).sort(compareKrefIds).map(formatKref);
    expect(sorted).toEqual(['kd1', 'ko9', 'ko10', 'kp1', 'kp2']);
  });

  it('keep rows in pages, -1 until written, listed in order', () => {
    const rows = new KrefRows(3);
    for (const kref of ['kp5', 'ko7', 'kp100000', 'kd2']) rows.set(krefId(kref), 0, 1);
    rows.set(krefId('kp5'), 2, 42);
    expect(rows.get(krefId('kp5'), 2)).toBe(42);
    expect(rows.get(krefId('kp5'), 1)).toBe(-1);
    expect(rows.get(krefId('kp6'), 0)).toBe(-1);
    expect(rows.has(krefId('kp6'))).toBe(false);
    expect(rows.size).toBe(4);
    expect([...rows.ids()].map(formatKref)).toEqual(['kd2', 'ko7', 'kp5', 'kp100000']);
    // kp5 and kp100000 are far apart: two pages of promises, one of objects, one of devices
    expect(rows.bytes).toBe(4 * 256 * 3 * 4);
  });
});

describe('the kref model on hand-made lines', () => {
  const { model, facts, names, flow, vats } = read(SLOG);
  const name = (kref: string): string | undefined => names.name(krefId(kref));

  it('names every kref after how it first appeared', () => {
    expect(Object.fromEntries([...model.ids()].map((id) => [formatKref(id), names.name(id) ?? null]))).toEqual({
      kd1: 'timer',
      kd2: 'timer.getThing/r',
      ko1: 'boot.root',
      ko2: 'bob.root',
      ko3: null, // first seen as a target: nothing says who made it
      ko10: 'foo-1/arg3.brand',
      ko11: 'bootstrap/r.pair[0]',
      ko12: 'bootstrap/r.pair[1]',
      ko13: 'baz/r.x',
      kp1: 'bootstrap/rp',
      kp10: 'foo-1/argp',
      kp11: 'foo-1/arg2p',
      kp12: 'foo-1/rp',
      kp13: 'baz/rp',
      kp14: 'bootstrap/r/p',
      kp15: 'foo-1/r/p',
      kp16: 'foo-1/r/p/p',
      kp17: 'foo-1/r/p/p/p',
      kp18: 'foo-1/r/p{4}',
      kp19: 'foo-1/r/p{5}',
      kp20: 'quit/rp',
      kp30: 'foo-2/rp',
      kp31: 'hello/rp',
    });
  });

  it('knows who resolved a promise, and ignores what an aborted crank did', () => {
    const kp12 = model.facts(krefId('kp12'));
    expect([kp12?.resolvedCrank, kp12?.resolver, kp12?.settled, kp12?.rejected]).toEqual([2, 'v2', true, false]);
    const kp20 = model.facts(krefId('kp20'));
    expect([kp20?.resolvedCrank, kp20?.resolver, kp20?.settled, kp20?.rejected]).toEqual([-1, undefined, true, true]);
    expect(facts.get(5)?.aborted).toBe(true);
    expect(facts.get(5)?.actions).toEqual([]);
    expect(model.facts(krefId('kp1'))?.origin).toBe(Origin.KERNEL_RESULT);
  });

  it('knows exporters, roots, drops and retirements', () => {
    const ko11 = model.facts(krefId('ko11'));
    expect([ko11?.owner, ko11?.root, ko11?.droppedCrank, ko11?.retiredCrank]).toEqual(['v1', false, 8, 9]);
    expect(model.facts(krefId('ko2'))?.owner).toBe('v2');
    expect(model.facts(krefId('ko2'))?.root).toBe(true);
  });

  it('matches a delivered send without a result to the send, in order; another one was the kernel', () => {
    expect(facts.get(3)?.message).toMatchObject({ count: 1, sentCrank: 1, sentVat: model.vats.find('v1'), result: -1 });
    expect(facts.get(4)?.message).toMatchObject({ count: 2, sentCrank: -1, sentVat: -1 });
    expect(names.messageName(facts.get(4)?.message?.methodId as number, 2)).toBe('bar-2');
  });

  it('prints the flow of these cranks', () => {
    const text = flow.lines(new FlowNames(model, names, { ...emptyAnnotations(), vatNames: new Map([['v3', 'carol']]) }));
    expect(vats.lookup('v1')).toBe('boot');
    expect(text).toEqual([
      'boot: 2 cranks (1 delivery, 1 notify):',
      '1 deliver bootstrap (sent by the kernel)',
      'bob <- foo-1',
      'bob <- bar-1',
      'foo-1/rp <- baz',
      '@ko3 <- quit',
      'resolve bootstrap/rp',
      'bob <- foo-2',
      '7 notify quit/rp (sent in 1, result from the kernel)',
      '(no intervat action)',
      // dropExports and retireExports send and resolve nothing: not listed; crank 8 and 9 are not here
      '',
      'bob: 4 cranks (3 delivery, 0 notify, 1 other):',
      '2 deliver foo-1 (sent from boot in 1)',
      'resolve foo-1/rp',
      '3 deliver bar-1 (sent from boot in 1)',
      '(no intervat action)',
      '4 deliver bar-2 (sent by the kernel)',
      'resolve foo-1/r/p (promise passed as part of resolution of foo-1/rp)',
      'resolve foo-1/r/p/p (promise passed as part of resolution of foo-1/r/p)',
      'resolve foo-1/r/p/p/p (promise passed as part of resolution of foo-1/r/p/p)',
      'resolve foo-1/r/p{4} (promise passed as part of resolution of foo-1/r/p/p/p)',
      'resolve baz/rp',
      '10 startVat',
      'boot <- hello',
      '',
      'carol: 1 crank (1 delivery, 0 notify):',
      '5 deliver quit (sent from boot in 1) (aborted: the kernel undid this crank)',
      '(no intervat action)',
    ]);
    expect(name('kp19')).toBe('foo-1/r/p{5}');
  });
});

describe('memory', () => {
  /** Builds the model from `n` synthetic cranks (each makes a promise and an object) in a fresh node, after GC. */
  function bytesPerKref(n: number): { krefs: number; bytesPerKref: number; rowBytesPerKref: number } {
    const script = `
      import { KrefModel } from ${JSON.stringify(`${ROOT}/dist/model/krefs.js`)};
      const used = () => { gc(); gc(); const m = process.memoryUsage(); return m.heapUsed + m.arrayBuffers; };
      const crank = (i) => {
        const kp = 'kp' + (1000 + i);
        const send = { type: 'syscall', ksc: ['send', 'ko1', { methargs: { body: '#["method' + (i % 100) + '",[]]', slots: [] }, result: kp }] };
        const resolve = { type: 'syscall', ksc: ['resolve', 'v1', [[kp, false, { body: '#"$0.Alleged: x"', slots: ['ko' + (1000 + i)] }]]] };
        return { crankNum: i, crankType: 'delivery', vatID: 'v1', start: { type: 'crank-start', crankNum: i, crankType: 'delivery' },
          items: [{ kind: 'syscall', call: send, seconds: 0 }, { kind: 'syscall', call: resolve, seconds: 0 }],
          timing: { total: 0, syscall: 0, syscallCount: 2 }, firstLine: 0, lastLine: 0 };
      };
      const before = used();
      const model = new KrefModel();
      for (let i = 0; i < ${n}; i += 1) model.addCrank(crank(i));
      const after = used();
      console.log(JSON.stringify({ krefs: model.size, bytesPerKref: (after - before) / model.size, rowBytesPerKref: model.rowBytes / model.size }));
    `;
    const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    return JSON.parse(r.stdout) as { krefs: number; bytesPerKref: number; rowBytesPerKref: number };
  }

  it('grows with the number of krefs, about 53 bytes each', () => {
    const small = bytesPerKref(50_000);
    const large = bytesPerKref(200_000);
    console.log(`kref model: ${small.krefs} krefs ${small.bytesPerKref.toFixed(1)} B/kref; ${large.krefs} krefs ${large.bytesPerKref.toFixed(1)} B/kref`);
    expect(large.krefs).toBe(400_001);
    // 13 Int32 fields per kref, in full pages
    expect(large.rowBytesPerKref).toBeCloseTo(52, 0);
    expect(large.bytesPerKref).toBeLessThan(70);
    expect(Math.abs(large.bytesPerKref - small.bytesPerKref)).toBeLessThan(10);
  });
});
