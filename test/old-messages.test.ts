/**
 * Older kernels' shapes (SLOG-FORMAT.md): 2021 messages, `{method, args,
 * result}` instead of `{methargs, result}`, print, count and name as today's
 * shape does ("2021 messages"), in the render (kernel and vat space, every
 * reading path: plain, byte reader, big lines), `stats`, the kref model
 * (`annotate`, `flow`, `kref`) and `trace`; a send without a result prints
 * `@null` as a kernel's send-only message does, never `@undefined`. An older
 * kernel's `callNow` syscall prints as `invoke` in kernel space ("syscall
 * invoke (older: callNow)"), and a failed one, like a failed invoke, prints
 * its error on its `result:` line only, not as the invoke's result.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AutoNames } from '../src/analyses/flow/auto-names.js';
import { messageText } from '../src/analyses/trace/trace.js';
import { emptyAnnotations } from '../src/model/annotations.js';
import { krefId } from '../src/model/kref-ids.js';
import { VatNames } from '../src/model/vats.js';
import { RenderContext } from '../src/render/context.js';
import { defaultRenderOptions, type RenderOptions } from '../src/render/options.js';
import { krefModelOf, statsOf } from '../src/run/analyses.js';
import { renderSlog } from '../src/run/render.js';
import type { CrankStartEntry } from '../src/scan/entry-types.js';
import { messageMethargs } from '../src/scan/message.js';
import type { ReadPath } from '../src/scan/line-reader.js';
import { bodyLines, deliveryCrank, legacy, sc, type Line } from './render-helpers.js';

/** The QA sample (/tmp/qa/old2021.slog), as a 2021 kernel wrote its messages. */
const OLD_2021 = [
  '{"type":"create-vat","vatID":"v1","name":"bootstrap","dynamic":false,"description":"bootstrap","time":1,"monotime":1}',
  '{"type":"crank-start","crankType":"delivery","crankNum":5,"vatID":"v1","time":10,"monotime":1}',
  '{"type":"deliver","crankNum":5,"vatID":"v1","deliveryNum":1,"kd":["message","ko22",{"method":"openAccount","args":{"body":"[\\"x0\\",0]","slots":[]},"result":"kp46"}],"vd":["message","o+0",{"method":"openAccount","args":{"body":"[\\"x0\\",0]","slots":[]},"result":"p-60"}],"time":10.1,"monotime":1}',
  '{"type":"syscall","crankNum":5,"vatID":"v1","deliveryNum":1,"syscallNum":0,"ksc":["send","ko30",{"method":"deposit","args":{"body":"[10]","slots":[]},"result":"kp60"}],"vsc":["send","o-50",{"method":"deposit","args":{"body":"[10]","slots":[]},"result":"p+5"}],"time":10.2,"monotime":1}',
  '{"type":"syscall-result","crankNum":5,"vatID":"v1","deliveryNum":1,"syscallNum":0,"ksr":["ok",null],"vsr":["ok",null],"time":10.3,"monotime":1}',
  '{"type":"syscall","crankNum":5,"vatID":"v1","deliveryNum":1,"syscallNum":1,"ksc":["send","ko30",{"method":{"@qclass":"symbol","name":"asyncIterator"},"args":{"body":"[{\\"@qclass\\":\\"bigint\\",\\"digits\\":\\"12\\"},{\\"@qclass\\":\\"undefined\\"}]","slots":[]},"result":"kp61"}],"vsc":["send","o-50",{"method":"x","args":{"body":"[]","slots":[]},"result":"p+6"}],"time":10.2,"monotime":1}',
  '{"type":"syscall-result","crankNum":5,"vatID":"v1","deliveryNum":1,"syscallNum":1,"ksr":["ok",null],"vsr":["ok",null],"time":10.3,"monotime":1}',
  '{"type":"syscall","crankNum":5,"vatID":"v1","deliveryNum":1,"syscallNum":2,"ksc":["vatstoreGetAfter","v1","","vc.4.","vc.4.{"],"vsc":["vatstoreGetAfter","","vc.4.","vc.4.{"],"time":10.2,"monotime":1}',
  '{"type":"syscall-result","crankNum":5,"vatID":"v1","deliveryNum":1,"syscallNum":2,"ksr":["ok",[null,null]],"vsr":["ok",[null,null]],"time":10.3,"monotime":1}',
  '{"type":"deliver-result","crankNum":5,"vatID":"v1","deliveryNum":1,"dr":["ok",null,null],"time":10.4,"monotime":1}',
  '{"type":"crank-finish","crankNum":5,"crankType":"delivery","time":10.5,"monotime":1}',
];

const OLD_2021_TEXT = `// startup
create-vat: v1 bootstrap static "bootstrap"

// crank 5: v1 bootstrap
crank-start: delivery crank 5
deliver: @ko22 <- openAccount("x0", 0): @kp46
send: @ko30 <- deposit(10): @kp60
send: @ko30 <- [asyncIterator](12, undefined): @kp61
vatstoreGetAfter: '' 'vc.4.' 'vc.4.{' : [null, null]
crank-finish: 500000µs crank 5

// end of slog
`;

const saved = process.env.SLOGULATE_BIG_LINE_BYTES;
afterEach(() => {
  if (saved === undefined) delete process.env.SLOGULATE_BIG_LINE_BYTES;
  else process.env.SLOGULATE_BIG_LINE_BYTES = saved;
});

/** Each way of reading lines: the plain path, the byte reader, and every line read as a big line (a stream of tokens). */
const WAYS: Array<{ name: string; path: ReadPath; big?: string }> = [
  { name: 'plain', path: 'plain' },
  { name: 'fast', path: 'fast' },
  { name: 'every line big', path: 'fast', big: '0' },
];

function setBig(big: string | undefined): void {
  if (big === undefined) delete process.env.SLOGULATE_BIG_LINE_BYTES;
  else process.env.SLOGULATE_BIG_LINE_BYTES = big;
}

const input = (lines: readonly string[], name = 'old2021.slog') => ({ name, bytes: Buffer.from(`${lines.join('\n')}\n`) });

async function render(lines: readonly string[], options: Partial<RenderOptions> = {}, way = WAYS[1]!): Promise<string> {
  setBig(way.big);
  return (await renderSlog({ inputs: [input(lines)], options, path: way.path })).text;
}

/** A message of one shape, from its parts. */
type Shape = (method: unknown, args: unknown[], slots?: string[], result?: unknown) => object;

/** A 2021 message: the method bare, args capdata of the argument list (legacy). */
const old: Shape = (method, args, slots = [], result) => ({
  method,
  args: legacy(args, slots),
  ...(result === undefined ? {} : { result }),
});
/** Today's shape of the same message. */
const today: Shape = (method, args, slots = [], result) => ({
  methargs: legacy([method, args], slots),
  ...(result === undefined ? {} : { result }),
});

const v1 = (inner: Line[]) => deliveryCrank(5, 'v1', inner as Array<Omit<Line, 'type'> & { type: string }>);

function sys(ksc: unknown[], vsc: unknown[], ksr: unknown[] = ['ok', null], vsr: unknown[] = ksr): Line[] {
  return [
    { type: 'syscall', ksc, vsc, time: 100.0002 },
    { type: 'syscall-result', ksr, vsr, time: 100.0002 + 0.000017 },
  ];
}

describe('2021 messages ({method, args, result})', () => {
  it('the QA sample prints as today\'s shape does, on every reading path', async () => {
    for (const way of WAYS) expect(await render(OLD_2021, {}, way), way.name).toBe(OLD_2021_TEXT);
    const vat = await render(OLD_2021, { vatspace: true, nonoise: true });
    expect(vat).toContain('deliver: @o+0 <- openAccount("x0", 0): @p-60\n');
    expect(vat).toContain('send: @o-50 <- deposit(10): @p+5\n');
    for (const way of WAYS) expect(await render(OLD_2021, { vatspace: true, nonoise: true }, way), way.name).toBe(vat);
  });

  it('delivery and send lines are those of the same message in today\'s shape: slots, symbols, kernel and vat space, slogger tags', () => {
    const crank = (shape: Shape) =>
      v1([
        {
          type: 'deliver',
          kd: ['message', 'ko22', shape('openAccount', ['x0', { '@qclass': 'slot', index: 0 }], ['ko31'], 'kp46')],
          vd: ['message', 'o+0', shape('openAccount', ['x0', { '@qclass': 'slot', index: 0 }], ['o-51'], 'p-60')],
        },
        ...sys(
          ['send', 'ko30', shape('deposit', [{ '@qclass': 'slot', index: 1 }, 10], ['ko9', 'ko31'], 'kp60')],
          ['send', 'o-50', shape('deposit', [{ '@qclass': 'slot', index: 1 }, 10], ['o-9', 'o-51'], 'p+5')],
        ),
        ...sys(['send', 'ko30', shape({ '@qclass': 'symbol', name: 'asyncIterator' }, [], [], 'kp61')], ['send', 'o-50', shape({ '@qclass': 'symbol', name: 'asyncIterator' }, [], [], 'p+6')]),
        ...sys(['send', 'ko30', shape('ping', [])], ['send', 'o-50', shape('ping', [])]),
      ]);
    const expected = [
      'deliver: @ko22 <- openAccount("x0", @ko31): @kp46',
      'send: @ko30 <- deposit(@ko31, 10): @kp60',
      'send: @ko30 <- [asyncIterator](): @kp61',
      'send: @ko30 <- ping(): @null',
    ];
    expect(bodyLines(crank(old), { nonoise: true })).toEqual(expected);
    expect(bodyLines(crank(today), { nonoise: true })).toEqual(expected);
    for (const options of [{ vatspace: true }, { usesloggertags: true }, { bigWidth: 10 }, { timing: true }]) {
      expect(bodyLines(crank(old), options), JSON.stringify(options)).toEqual(bodyLines(crank(today), options));
    }
    expect(bodyLines(crank(old), { vatspace: true, nonoise: true })).toEqual([
      'deliver: @o+0 <- openAccount("x0", @o-51): @p-60',
      'send: @o-50 <- deposit(@o-51, 10): @p+5',
      'send: @o-50 <- [asyncIterator](): @p+6',
      'send: @o-50 <- ping(): @null',
    ]);
  });

  it('a message without a result prints @null (as a kernel\'s send-only message), never @undefined', () => {
    const lines = bodyLines(
      v1([
        { type: 'deliver', kd: ['message', 'ko22', { method: 'ping', args: legacy([]) }] },
        { type: 'deliver', kd: ['message', 'ko22', { methargs: sc(['ping', []]) }] },
        { type: 'deliver', kd: ['message', 'ko22', { methargs: sc(['ping', []]), result: null }] },
        ...sys(['send', 'ko30', { method: 'ping', args: legacy([]) }], ['send', 'o-50', { method: 'ping', args: legacy([]) }]),
        ...sys(['send', 'ko30', { methargs: sc(['ping', []]) }], ['send', 'o-50', { methargs: sc(['ping', []]) }]),
      ]),
      { nonoise: true },
    );
    expect(lines).toEqual(['deliver: @ko22 <- ping(): @null', 'deliver: @ko22 <- ping(): @null', 'deliver: @ko22 <- ping(): @null', 'send: @ko30 <- ping(): @null', 'send: @ko30 <- ping(): @null']);
    // A message record without a result, the result after it (as older vats put it after their methargs).
    const after = bodyLines(v1(sys(['send', 'ko30', { methargs: sc(['ping', []]) }, 'kp9'], ['send', 'o-50', { method: 'ping', args: legacy([]) }, 'p+9'])), { nonoise: true });
    expect(after).toEqual(['send: @ko30 <- ping(): @kp9']);
    expect(bodyLines(v1(sys(['send', 'ko30', { methargs: sc(['ping', []]) }, 'kp9'], ['send', 'o-50', { method: 'ping', args: legacy([]) }, 'p+9'])), { nonoise: true, vatspace: true })).toEqual(['send: @o-50 <- ping(): @p+9']);
  });

  it('the methargs of either shape: one capdata, exact (escapes, slots, a smallcaps body, a function call)', () => {
    expect(messageMethargs({ methargs: sc(['m', []]), result: 'kp1' })).toEqual(sc(['m', []]));
    expect(messageMethargs({ method: 'openAccount', args: legacy(['x0', 0]), result: 'kp46' })).toEqual({ body: '["openAccount",["x0",0]]', slots: [] });
    expect(messageMethargs({ method: 'say "hi"', args: legacy([{ '@qclass': 'slot', index: 0 }], ['ko1']) })).toEqual({
      body: '["say \\"hi\\"",[{"@qclass":"slot","index":0}]]',
      slots: ['ko1'],
    });
    expect(messageMethargs({ method: 'm', args: sc(['$0.Alleged: x'], ['ko1']) })).toEqual({ body: '#["m",["$0.Alleged: x"]]', slots: ['ko1'] });
    expect(messageMethargs({ method: '%not a symbol', args: sc([]) })).toEqual({ body: '#["!%not a symbol",[]]', slots: [] });
    expect(messageMethargs({ args: legacy([1]) })).toEqual({ body: '[{"@qclass":"undefined"},[1]]', slots: [] });
    expect(messageMethargs({ method: 'm' })).toBeUndefined();
    expect(messageMethargs({ result: 'kp1' })).toBeUndefined();
    expect(messageMethargs(null)).toBeUndefined();
  });

  it('a 2021 message whose arguments are huge (a big line, its body a BigString) prints as on one line held whole', async () => {
    const huge = 'é"\\x'.repeat(6000);
    const lines = [
      ...OLD_2021.slice(0, 2),
      JSON.stringify({
        type: 'deliver',
        crankNum: 5,
        vatID: 'v1',
        deliveryNum: 1,
        kd: ['message', 'ko22', { method: 'openAccount', args: legacy([huge, 'small', { '@qclass': 'slot', index: 0 }], ['ko31']), result: 'kp46' }],
        vd: ['message', 'o+0', { method: 'openAccount', args: legacy([huge, 'small', { '@qclass': 'slot', index: 0 }], ['o-51']), result: 'p-60' }],
        time: 10.1,
        monotime: 1,
      }),
      ...OLD_2021.slice(3),
    ];
    const whole = await render(lines, {}, WAYS[0]);
    expect(whole).toContain('deliver: @ko22 <- openAccount(<BIG>, "small", @ko31): @kp46\n');
    for (const big of ['0', '1000']) {
      expect(await render(lines, {}, { name: `big ${big}`, path: 'fast', big }), `big lines over ${big} bytes`).toBe(whole);
      expect(await render(lines, { bigWidth: 100000 }, { name: `big ${big}`, path: 'fast', big })).toBe(await render(lines, { bigWidth: 100000 }, WAYS[0]));
      setBig(big);
      const stats = (await statsOf({ inputs: [input(lines)] })).aggregate;
      expect(stats.deliveriesByVatMethod.map((r) => r.method)).toEqual(['openAccount']);
    }
  });

  it('stats counts a 2021 delivery under its method, on every reading path', async () => {
    for (const way of WAYS) {
      setBig(way.big);
      const { aggregate } = await statsOf({ inputs: [input(OLD_2021)], path: way.path });
      expect(
        aggregate.deliveriesByVatMethod.map((r) => [r.vatID, r.method, r.count]),
        way.name,
      ).toEqual([['v1', 'openAccount', 1]]);
    }
  });

  it('the kref model (annotate, flow, kref) names the result and arguments of 2021 messages after their method', async () => {
    const lines = [
      '{"type":"create-vat","vatID":"v2","name":"bank","dynamic":false,"description":"bank","time":1,"monotime":1}',
      // The kernel queued openAccount: its result is made by the kernel, in the routing crank.
      '{"type":"crank-start","crankType":"routing","crankNum":4,"message":{"type":"send","target":"ko22","msg":{"method":"openAccount","args":{"body":"[\\"x0\\",0]","slots":[]},"result":"kp46"}},"time":9,"monotime":1}',
      '{"type":"crank-finish","crankType":"routing","crankNum":4,"time":9.5,"monotime":1}',
      '{"type":"crank-start","crankType":"delivery","crankNum":5,"vatID":"v2","time":10,"monotime":1}',
      '{"type":"deliver","crankNum":5,"vatID":"v2","deliveryNum":1,"kd":["message","ko22",{"method":"openAccount","args":{"body":"[\\"x0\\",0]","slots":[]},"result":"kp46"}],"vd":["message","o+0",{"method":"openAccount","args":{"body":"[\\"x0\\",0]","slots":[]},"result":"p-60"}],"time":10.1,"monotime":1}',
      '{"type":"syscall","crankNum":5,"vatID":"v2","deliveryNum":1,"syscallNum":0,"ksc":["send","ko30",{"method":"deposit","args":{"body":"[{\\"@qclass\\":\\"slot\\",\\"index\\":0},10]","slots":["ko31"]},"result":"kp60"}],"vsc":["send","o-50",{"method":"deposit","args":{"body":"[{\\"@qclass\\":\\"slot\\",\\"index\\":0},10]","slots":["o+7"]},"result":"p+5"}],"time":10.2,"monotime":1}',
      '{"type":"syscall-result","crankNum":5,"vatID":"v2","deliveryNum":1,"syscallNum":0,"ksr":["ok",null],"vsr":["ok",null],"time":10.3,"monotime":1}',
      '{"type":"deliver-result","crankNum":5,"vatID":"v2","deliveryNum":1,"dr":["ok",null,null],"time":10.4,"monotime":1}',
      '{"type":"crank-finish","crankNum":5,"crankType":"delivery","time":10.5,"monotime":1}',
    ];
    for (const way of WAYS) {
      setBig(way.big);
      const { model, reader } = await krefModelOf({ inputs: [input(lines)], path: way.path, start: () => ({ vats: new VatNames(), value: undefined }) });
      const names = new AutoNames(model, reader.vats);
      const named = Object.fromEntries(['ko22', 'kp46', 'kp60', 'ko31'].map((k) => [k, names.name(krefId(k)) ?? null]));
      expect(named, way.name).toEqual({ ko22: 'bank.root', kp46: 'openAccount/rp', kp60: 'deposit/rp', ko31: 'deposit/arg1' });
    }
  });

  it('trace names a routing crank by its 2021 message', () => {
    const ctx = new RenderContext(defaultRenderOptions(), emptyAnnotations(), new VatNames());
    const start: CrankStartEntry = {
      type: 'crank-start',
      crankNum: 4,
      crankType: 'routing',
      message: { type: 'send', target: 'ko22', msg: { method: 'openAccount', args: legacy(['x0', 0]), result: 'kp46' } },
    };
    expect(messageText(ctx, start)).toBe('send: @ko22 <- openAccount("x0", 0): @kp46');
    const sendOnly: CrankStartEntry = { ...start, message: { type: 'send', target: 'ko22', msg: { method: 'ping', args: legacy([]) } } };
    expect(messageText(ctx, sendOnly)).toBe('send: @ko22 <- ping()');
  });
});

describe('callNow (an older kernel\'s invoke)', () => {
  const crank = v1([
    ...sys(['invoke', 'kd30', 'getLastPolled', sc([])], ['callNow', 'd-70', 'getLastPolled', sc([])], ['ok', sc(1000)]),
    ...sys(['callNow', 'kd30', 'poll', legacy([1])], ['callNow', 'd-70', 'poll', legacy([1])], ['ok', legacy({ '@qclass': 'undefined' })]),
    ...sys(['callNow', 'kd30', 'poll', legacy([2])], ['callNow', 'd-70', 'poll', legacy([2])], ['error', 'no such device']),
    ...sys(['invoke', 'kd30', 'poll', legacy([2])], ['callNow', 'd-70', 'poll', legacy([2])], ['error', 'no such device']),
  ]);

  it('prints as invoke in kernel space (a vat\'s own callNow keeps its name in vat space)', () => {
    expect(bodyLines(crank, { nonoise: true })).toEqual([
      'invoke: @kd30.getLastPolled(): 1000',
      'invoke: @kd30.poll(1): undefined',
      'result: error no such device',
      'invoke: @kd30.poll(2)',
      'result: error no such device',
      'invoke: @kd30.poll(2)',
    ]);
    expect(bodyLines(crank, { nonoise: true, usesloggertags: true })).toEqual([
      'syscall invoke: @kd30.getLastPolled(): 1000',
      'syscall invoke: @kd30.poll(1): undefined',
      'syscall-result invoke: error no such device',
      'syscall invoke: @kd30.poll(2)',
      'syscall-result invoke: error no such device',
      'syscall invoke: @kd30.poll(2)',
    ]);
    expect(bodyLines(crank, { nonoise: true, vatspace: true })).toEqual([
      'callNow: @d-70.getLastPolled(): 1000',
      'callNow: @d-70.poll(1): undefined',
      'result: error no such device',
      'callNow: @d-70.poll(2)',
      'result: error no such device',
      'callNow: @d-70.poll(2)',
    ]);
  });

  it('is no vatstore syscall (--novatstore keeps it); --timing times it', () => {
    expect(bodyLines(crank, { nonoise: true, novatstore: true })).toEqual(bodyLines(crank, { nonoise: true }));
    expect(bodyLines(crank, { nonoise: true, timing: true })[1]).toBe('invoke: @kd30.poll(1): undefined (17µs)');
  });

  it('stats keeps the slog\'s own name in its syscalls by type', async () => {
    const lines = [
      '{"type":"crank-start","crankType":"delivery","crankNum":5,"vatID":"v1","time":10,"monotime":1}',
      '{"type":"syscall","crankNum":5,"vatID":"v1","deliveryNum":1,"syscallNum":0,"ksc":["callNow","kd30","poll",{"body":"[1]","slots":[]}],"vsc":["callNow","d-70","poll",{"body":"[1]","slots":[]}],"time":10.2,"monotime":1}',
      '{"type":"syscall-result","crankNum":5,"vatID":"v1","deliveryNum":1,"syscallNum":0,"ksr":["ok",{"body":"1","slots":[]}],"vsr":["ok",{"body":"1","slots":[]}],"time":10.3,"monotime":1}',
      '{"type":"crank-finish","crankNum":5,"crankType":"delivery","time":10.5,"monotime":1}',
    ];
    expect(await render(lines, { nonoise: true, crankbreaks: false })).toBe('invoke: @kd30.poll(1): 1\n');
    const { aggregate } = await statsOf({ inputs: [input(lines)] });
    expect(aggregate.syscallsByType.map((r) => r.type)).toEqual(['callNow']);
  });

  it('a device node returned by a callNow is named after it, as by an invoke', async () => {
    const lines = [
      '{"type":"crank-start","crankType":"delivery","crankNum":5,"vatID":"v1","time":10,"monotime":1}',
      '{"type":"syscall","crankNum":5,"vatID":"v1","deliveryNum":1,"syscallNum":0,"ksc":["callNow","kd30","getThing",{"body":"[]","slots":[]}],"vsc":["callNow","d-70","getThing",{"body":"[]","slots":[]}],"time":10.2,"monotime":1}',
      '{"type":"syscall-result","crankNum":5,"vatID":"v1","deliveryNum":1,"syscallNum":0,"ksr":["ok",{"body":"{\\"@qclass\\":\\"slot\\",\\"index\\":0}","slots":["kd31"]}],"vsr":["ok",{"body":"{\\"@qclass\\":\\"slot\\",\\"index\\":0}","slots":["d-71"]}],"time":10.3,"monotime":1}',
      '{"type":"crank-finish","crankNum":5,"crankType":"delivery","time":10.5,"monotime":1}',
    ];
    const { model, reader } = await krefModelOf({ inputs: [input(lines)], start: () => ({ vats: new VatNames(), value: undefined }) });
    const names = new AutoNames(model, reader.vats);
    expect(names.name(krefId('kd31'))).toMatch(/getThing/);
  });
});

