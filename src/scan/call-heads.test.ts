/**
 * A delivery's `target` and `resultPromise`, a syscall's `target` and
 * `method` (call-heads.ts): on hand-made lines, the plain path gives what
 * each line's expectation (written out here from the slog format) says, and
 * the byte reader (head-bytes.ts) the same entry or none; on every line of
 * every shared slog, both give what a small loop of this file's own
 * computes from the parsed line.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_EXPORT_READS, EXPORT_READS } from '../export/reads.js';
import { MODEL_READS } from '../model/reads.js';
import { defaultRenderOptions } from '../render/options.js';
import { renderReads } from '../render/reads.js';
import { lineText, readLines, splitLines, type BigLine } from '../source/lines.js';
import { isCrankEntry, type DeliverEntry, type SyscallEntry } from './entry-types.js';
import { FastReader } from './fast-reader.js';
import { lineReader } from './line-reader.js';
import { BadLine, readPlainLine } from './plain-reader.js';
import { planReads } from './read-plan.js';
import { mergeReads, READ_NOTHING, withFields, type Reads } from './reads.js';
import { sharedSlogs } from './shared-slogs.test-helpers.js';

const PIECES = withFields(READ_NOTHING, { deliver: ['target', 'resultPromise', 'method'], syscall: ['target', 'method'] });

/** Consumers that ask for the pieces: alone (read from the bytes), beside the whole kd and ksc (from the parsed value), beside reads by syscall name. */
const CONSUMERS: Record<string, Reads> = {
  'export (default tables)': DEFAULT_EXPORT_READS,
  'export (every table)': EXPORT_READS,
  'the pieces alone': PIECES,
  'the pieces and the render --novatstore': mergeReads(renderReads({ ...defaultRenderOptions(), novatstore: true }), PIECES),
};

const plans = Object.entries(CONSUMERS).map(([name, reads]) => [name, planReads(mergeReads(MODEL_READS, reads))] as const);

const TAIL = '"time":1795404511.715977,"monotime":43.3';

function syscallLine(name: string, ksc: string | undefined, vsc: string): string {
  const head = ksc === undefined ? '"vatID":"v1","deliveryNum":1,"syscallNum":0,"replay":true' : '"crankNum":7,"vatID":"v1","deliveryNum":1,"syscallNum":0,"replay":false';
  return `{"type":"syscall",${head},"syscall":"${name}",${ksc === undefined ? '' : `"ksc":${ksc},`}"vsc":${vsc},${TAIL}}`;
}

function deliverLine(kind: string, kd: string | undefined, vd: string): string {
  const head = kd === undefined ? '"vatID":"v4","deliveryNum":2,"replay":true' : '"crankNum":12,"vatID":"v4","deliveryNum":2,"replay":false';
  return `{"type":"deliver",${head},"dispatch":"${kind}",${kd === undefined ? '' : `"kd":${kd},`}"vd":${vd},${TAIL}}`;
}

const methargs = (method: string): string => `{"body":"#[\\"${method}\\",[]]","slots":[]}`;
const VSC_SEND = `["send","o-50",{"methargs":${methargs('deposit')},"result":"p+5"}]`;
const VD_MESSAGE = `["message","o+0",{"methargs":${methargs('openAccount')},"result":"p-60"}]`;
const CAPDATA = '{"body":"#1","slots":[]}';

interface SyscallCase {
  line: string;
  target: string | undefined;
  method: string | undefined;
  /** The byte reader must take it (a usual shape). */
  taken?: true;
}

const send = (ksc: string, target: string | undefined, method: string | undefined, taken?: true): SyscallCase => ({ line: syscallLine('send', ksc, VSC_SEND), target, method, ...(taken ? { taken } : {}) });

const SYSCALLS: SyscallCase[] = [
  send(`["send","ko30",{"methargs":${methargs('deposit')},"result":"kp5"}]`, 'ko30', 'deposit', true),
  send(`["send","ko30",{"methargs":${methargs('%asyncIterator')},"result":"kp5"}]`, 'ko30', '[asyncIterator]', true),
  send(`["send","ko30",{"methargs":${methargs('#undefined')}}]`, 'ko30', '<funcall>', true),
  // Older vats: methargs itself; 2021: method and args.
  send('["send","ko30",{"body":"[\\"ping\\",[]]","slots":[]},"kp5"]', 'ko30', 'ping'),
  send('["send","ko30",{"method":"ping","args":{"body":"[]","slots":[]},"result":"kp5"}]', 'ko30', 'ping'),
  // The last methargs, the last body; a key with an escape.
  send(`["send","ko30",{"methargs":${methargs('a')},"methargs":${methargs('b')}}]`, 'ko30', 'b'),
  send('["send","ko30",{"methargs":{"body":"#[\\"a\\",[]]","body":"#[\\"c\\",[]]","slots":[]}}]', 'ko30', 'c'),
  send('["send","ko30",{"methargs":{"bo\\u0064y":"#[\\"c\\",[]]","slots":[]}}]', 'ko30', 'c'),
  send('["send","ko30",{"meth\\u0061rgs":{"body":"#[\\"d\\",[]]","slots":[]}}]', 'ko30', 'd'),
  send('["send","ko30",{"methargs":{"body":"#[\\"\\u0065scaped\\",[]]","slots":[]}}]', 'ko30', 'escaped'),
  // A target that is not a string (a send's is never `{kref}`); short sends.
  send(`["send",{"kref":"ko30"},{"methargs":${methargs('deposit')}}]`, undefined, 'deposit'),
  send('["send","ko30"]', 'ko30', '<unintelligible method>'),
  send('["send"]', undefined, '<unintelligible method>'),
  send('["send","ko30",null]', 'ko30', '<unintelligible method>'),
  { line: syscallLine('invoke', `["invoke","kd30","getBalance",${CAPDATA}]`, `["callNow","d-70","getBalance",${CAPDATA}]`), target: 'kd30', method: 'getBalance', taken: true },
  // An older kernel's callNow, named invoke by the slogger: with reads by name, the plain path's (it reads them by ksc[0]).
  { line: syscallLine('invoke', `["callNow","kd30","getBalance",${CAPDATA}]`, `["callNow","d-70","getBalance",${CAPDATA}]`), target: 'kd30', method: 'getBalance' },
  { line: syscallLine('invoke', `["invoke","kd30",7,${CAPDATA}]`, `["callNow","d-70",7,${CAPDATA}]`), target: 'kd30', method: undefined, taken: true },
  { line: syscallLine('subscribe', '["subscribe","v1","kp40"]', '["subscribe","p+5"]'), target: 'kp40', method: undefined, taken: true },
  { line: syscallLine('resolve', `["resolve","v1",[["kp40",false,${CAPDATA}],["kp41",true,${CAPDATA}]]]`, `["resolve",[["p-1",false,${CAPDATA}]]]`), target: 'kp40', method: undefined, taken: true },
  { line: syscallLine('resolve', '["resolve","v1",[]]', '["resolve",[]]'), target: undefined, method: undefined, taken: true },
  { line: syscallLine('resolve', '["resolve","v1",["kp40"]]', '["resolve",[]]'), target: undefined, method: undefined, taken: true },
  { line: syscallLine('resolve', '["resolve","v1",[[]]]', '["resolve",[]]'), target: undefined, method: undefined, taken: true },
  { line: syscallLine('resolve', '["resolve","v1",[[7,false]]]', '["resolve",[]]'), target: undefined, method: undefined, taken: true },
  { line: syscallLine('resolve', '["resolve","v1","x"]', '["resolve",[]]'), target: undefined, method: undefined, taken: true },
  { line: syscallLine('resolve', '["resolve","v1"]', '["resolve"]'), target: undefined, method: undefined, taken: true },
  { line: syscallLine('vatstoreGet', '["vatstoreGet","v1","idCounters"]', '["vatstoreGet","idCounters"]'), target: 'idCounters', method: undefined, taken: true },
  { line: syscallLine('vatstoreSet', '["vatstoreSet","v1","vc.1.s\\u00e9","{}"]', '["vatstoreSet","vc.1.s\\u00e9","{}"]'), target: 'vc.1.s\u00e9', method: undefined, taken: true },
  { line: syscallLine('vatstoreSet', '["vatstoreSet","v1","vc.1.s\u00e9","{\\"a\\":1}"]', '["vatstoreSet","vc.1.s\u00e9","{}"]'), target: 'vc.1.s\u00e9', method: undefined, taken: true },
  { line: syscallLine('vatstoreGetAfter', '["vatstoreGetAfter","v1","vc.1.","vc.1.","vc.2."]', '["vatstoreGetAfter","vc.1.","vc.1.","vc.2."]'), target: 'vc.1.', method: undefined, taken: true },
  { line: syscallLine('vatstoreGetAfter', '["vatstoreGetAfter","v1","","vc.1.",null]', '["vatstoreGetAfter","","vc.1.",null]'), target: '', method: undefined, taken: true },
  { line: syscallLine('vatstoreGet', '["vatstoreGet","v1"]', '["vatstoreGet"]'), target: undefined, method: undefined, taken: true },
  { line: syscallLine('dropImports', '["dropImports",["ko1","ko2"]]', '["dropImports",["o-1","o-2"]]'), target: 'ko1', method: undefined, taken: true },
  { line: syscallLine('retireExports', '["retireExports",[]]', '["retireExports",[]]'), target: undefined, method: undefined, taken: true },
  { line: syscallLine('abandonExports', '["abandonExports","v1",["ko3"],["ko4"]]', '["abandonExports",["o+3"]]'), target: 'ko3', method: undefined, taken: true },
  { line: syscallLine('exit', `["exit","v1",false,${CAPDATA}]`, `["exit",false,${CAPDATA}]`), target: undefined, method: undefined, taken: true },
  { line: syscallLine('futureSyscall', '["futureSyscall","ko1","m"]', '["futureSyscall","o-1","m"]'), target: undefined, method: undefined, taken: true },
  // Replays: only vsc, in vat space (no vat ID first).
  { line: syscallLine('send', undefined, VSC_SEND), target: 'o-50', method: 'deposit', taken: true },
  { line: syscallLine('subscribe', undefined, '["subscribe","p+5"]'), target: 'p+5', method: undefined, taken: true },
  { line: syscallLine('resolve', undefined, `["resolve",[["p-1",false,${CAPDATA}]]]`), target: 'p-1', method: undefined, taken: true },
  { line: syscallLine('vatstoreGetAfter', undefined, '["vatstoreGetAfter","vc.1.","vc.1.","vc.2."]'), target: 'vc.1.', method: undefined, taken: true },
  { line: syscallLine('callNow', undefined, `["callNow","d-70","getBalance",${CAPDATA}]`), target: 'd-70', method: 'getBalance', taken: true },
  // Not lists, an empty list, a name that is not a string: none (the plain path reads them).
  { line: syscallLine('send', '[]', VSC_SEND), target: undefined, method: undefined },
  { line: syscallLine('send', 'null', VSC_SEND), target: undefined, method: undefined },
  { line: syscallLine('send', '"send"', VSC_SEND), target: undefined, method: undefined },
  { line: syscallLine('send', '[7,"ko30"]', VSC_SEND), target: undefined, method: undefined },
];

interface DeliverCase {
  line: string;
  target: string | undefined;
  resultPromise: string | undefined;
  method: string | undefined;
  taken?: true;
}

const message = (kd: string, target: string | undefined, resultPromise: string | undefined, method: string | undefined, taken?: true): DeliverCase => ({
  line: deliverLine('message', kd, VD_MESSAGE),
  target,
  resultPromise,
  method,
  ...(taken ? { taken } : {}),
});

const DELIVERIES: DeliverCase[] = [
  message(`["message","ko22",{"methargs":${methargs('openAccount')},"result":"kp46"}]`, 'ko22', 'kp46', 'openAccount', true),
  message(`["message",{"kref":"ko22"},{"methargs":${methargs('openAccount')},"result":"kp46"}]`, 'ko22', 'kp46', 'openAccount', true),
  message(`["message",{"kref":"ko22","kref":"ko23"},{"methargs":${methargs('m')}}]`, 'ko23', undefined, 'm', true),
  message(`["message",{"kref":5},{"methargs":${methargs('m')}}]`, undefined, undefined, 'm', true),
  message(`["message",{"kr\\u0065f":"ko7"},{"methargs":${methargs('m')}}]`, 'ko7', undefined, 'm', true),
  message(`["message",{},{"methargs":${methargs('m')},"result":null}]`, undefined, undefined, 'm', true),
  message(`["message",["ko1"],{"methargs":${methargs('m')},"result":7}]`, undefined, undefined, 'm', true),
  message(`["message","ko\\u0032",{"methargs":${methargs('m')},"result":"kp1","result":"kp2"}]`, 'ko2', 'kp2', 'm', true),
  message(`["message","ko22",{"methargs":${methargs('m')},"res\\u0075lt":"kp3"}]`, 'ko22', 'kp3', 'm', true),
  message('["message","ko22",{"method":"ping","args":{"body":"[]","slots":[]},"result":"kp5"}]', 'ko22', 'kp5', 'ping', true),
  message('["message","ko22",{"result":"kp5"}]', 'ko22', 'kp5', '<unintelligible method>', true),
  message('["message","ko22",null]', 'ko22', undefined, '<unintelligible method>', true),
  message('["message","ko22"]', 'ko22', undefined, '<unintelligible method>', true),
  message('["message"]', undefined, undefined, '<unintelligible method>', true),
  { line: deliverLine('notify', `["notify",[["kp1",false,${CAPDATA}],["kp2",false,${CAPDATA}]]]`, '["notify",[]]'), target: 'kp1', resultPromise: undefined, method: undefined, taken: true },
  { line: deliverLine('notify', '["notify",[]]', '["notify",[]]'), target: undefined, resultPromise: undefined, method: undefined, taken: true },
  { line: deliverLine('notify', '["notify",["kp1"]]', '["notify",[]]'), target: undefined, resultPromise: undefined, method: undefined, taken: true },
  { line: deliverLine('notify', '["notify",[[5,false]]]', '["notify",[]]'), target: undefined, resultPromise: undefined, method: undefined, taken: true },
  { line: deliverLine('notify', '["notify"]', '["notify"]'), target: undefined, resultPromise: undefined, method: undefined, taken: true },
  { line: deliverLine('dropExports', '["dropExports",["ko1"]]', '["dropExports",["o+1"]]'), target: undefined, resultPromise: undefined, method: undefined, taken: true },
  { line: deliverLine('bringOutYourDead', '["bringOutYourDead"]', '["bringOutYourDead"]'), target: undefined, resultPromise: undefined, method: undefined, taken: true },
  // A replay: only vd.
  { line: deliverLine('message', undefined, VD_MESSAGE), target: 'o+0', resultPromise: 'p-60', method: 'openAccount', taken: true },
  { line: deliverLine('notify', undefined, `["notify",[["p-1",false,${CAPDATA}]]]`), target: 'p-1', resultPromise: undefined, method: undefined, taken: true },
  // A kd that is not a list: none from it (the line has one: vd is not read for them).
  { line: deliverLine('message', 'null', VD_MESSAGE), target: undefined, resultPromise: undefined, method: 'openAccount' },
  { line: deliverLine('message', '"message"', VD_MESSAGE), target: undefined, resultPromise: undefined, method: undefined },
];

/** Damaged inside the kd or ksc read for its pieces: the plain path reports the line, the byte reader does not take it. */
const DAMAGED = [
  syscallLine('send', `["send","ko30",{"methargs":${methargs('deposit')},}]`, VSC_SEND),
  syscallLine('send', `["send","ko30",{"methargs":${methargs('deposit')}]`, VSC_SEND),
  syscallLine('resolve', '["resolve","v1",[["kp40",false,{"body":"#1","slots":[}]]]', '["resolve",[]]'),
  syscallLine('vatstoreSet', '["vatstoreSet","v1","key","\\q"]', '["vatstoreSet","key","x"]'),
  syscallLine('send', undefined, `["send","o-50",{"methargs":${methargs('deposit')},"result":"p+5"]`),
  syscallLine('vatstoreGet', undefined, '["vatstoreGet","key",]'),
  deliverLine('message', `["message","ko22",{"methargs":${methargs('m')},"result":"kp46"]`, VD_MESSAGE),
  deliverLine('notify', '["notify",[["kp1",false,{"body":"#1",}]]]', '["notify",[]]'),
  deliverLine('message', `["message",{"kref":"ko22",},{"methargs":${methargs('m')}}]`, VD_MESSAGE),
  deliverLine('message', undefined, `["message","o+0",{"methargs":{"body":"#[\\"m\\",[]]","slots":[]},"result":"p-60"}`),
];

/** Each line read both ways with `plan`: the plain entry, and the byte reader's (undefined: not taken). */
function readBoth(lines: readonly string[], plan: ReturnType<typeof planReads>): Array<{ plain: unknown; fast: unknown }> {
  const batch = splitLines(Buffer.from(lines.join('\n')));
  const fast = new FastReader(plan);
  return lines.map((_, i) => ({
    plain: readPlainLine(lineText(batch, i), plan),
    fast: fast.read(batch, batch.spans[2 * i] as number, batch.spans[2 * i + 1] as number),
  }));
}

describe('hand-made lines: the pieces the rules give, the same both ways', () => {
  it.each(plans)('syscalls (%s)', (_name, plan) => {
    const read = readBoth(
      SYSCALLS.map((c) => c.line),
      plan,
    );
    SYSCALLS.forEach((c, i) => {
      const { plain, fast } = read[i] as { plain: SyscallEntry; fast: SyscallEntry | undefined };
      expect({ target: plain.target, method: plain.method }, c.line).toEqual({ target: c.target, method: c.method });
      if (c.taken) expect(fast, c.line).toBeDefined();
      if (fast !== undefined) expect(fast, c.line).toStrictEqual(plain);
    });
  });

  it.each(plans)('deliveries (%s)', (_name, plan) => {
    const read = readBoth(
      DELIVERIES.map((c) => c.line),
      plan,
    );
    DELIVERIES.forEach((c, i) => {
      const { plain, fast } = read[i] as { plain: DeliverEntry; fast: DeliverEntry | undefined };
      expect({ target: plain.target, resultPromise: plain.resultPromise, method: plain.method }, c.line).toEqual({
        target: c.target,
        resultPromise: c.resultPromise,
        method: c.method,
      });
      if (c.taken) expect(fast, c.line).toBeDefined();
      if (fast !== undefined) expect(fast, c.line).toStrictEqual(plain);
    });
  });

  it.each(Object.entries(CONSUMERS))('lines read as big lines (streamed as tokens, big-line.ts): the plain path\'s entries (%s)', async (_name, reads) => {
    const lines = [...SYSCALLS.map((c) => c.line), ...DELIVERIES.map((c) => c.line)];
    const plan = planReads(mergeReads(MODEL_READS, reads));
    const reader = lineReader(mergeReads(MODEL_READS, reads), { fast: true });
    const big: unknown[] = [];
    for await (const batch of readLines([Buffer.from(`${lines.join('\n')}\n`)], { bigLineBytes: 64 })) {
      expect(batch.big).toBeDefined();
      big.push(await reader.readBig(batch.big as BigLine));
    }
    expect(reader.linesRead.big).toBe(lines.length);
    const plain = readBoth(lines, plan).map((r) => r.plain);
    lines.forEach((line, i) => expect(big[i], line).toStrictEqual(plain[i]));
  });

  it.each(plans)('damage inside the value read for its pieces is a bad line either way (%s)', (_name, plan) => {
    for (const { plain, fast } of readBoth(DAMAGED, plan)) {
      expect(plain).toBeInstanceOf(BadLine);
      expect(fast).toBeUndefined();
    }
  });
});

// ---- every line of every shared slog, against this file's own reading of the parsed line

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** A methargs body's method, named as SLOG-FORMAT.md says: a name bare, a symbol `[name]`, none `<funcall>`. */
function bodyMethod(methargs: unknown): string {
  const body = (methargs as { body?: unknown } | null)?.body;
  if (typeof body !== 'string') return '<unintelligible method>';
  const smallcaps = body.startsWith('#');
  let first: unknown;
  try {
    first = (JSON.parse(smallcaps ? body.slice(1) : body) as unknown[])[0];
  } catch {
    return '<unintelligible method>';
  }
  if (smallcaps) {
    if (typeof first !== 'string') return '<unintelligible method>';
    if (first === '#undefined') return '<funcall>';
    if (first.startsWith('%')) return `[${first.slice(1)}]`;
    if (first.startsWith('!')) return first.slice(1);
    if (/^[#+\-$&]/.test(first)) return '<unintelligible method>';
    return first.replaceAll('"', '');
  }
  if (typeof first === 'string') return first.replaceAll('"', '');
  if (first === undefined || first === null) return '<funcall>';
  const q = first as { '@qclass'?: unknown; name?: unknown };
  if (q['@qclass'] === 'undefined') return '<funcall>';
  if (q['@qclass'] === 'symbol') return `[${String(q.name)}]`;
  return '<unintelligible method>';
}

/** A message's method, today's `{methargs}` (the shared slogs have no other). */
const messageMethodOf = (msg: unknown): string => bodyMethod((msg as { methargs?: unknown } | null)?.methargs);

/** Where a kernel-space syscall's arguments begin after the vat ID. */
const VAT_ID_FIRST = ['resolve', 'subscribe', 'vatstoreGet', 'vatstoreGetNextKey', 'vatstoreDelete', 'vatstoreSet', 'vatstoreGetAfter', 'exit'];

function expectedCall(call: unknown, kernel: boolean): { target: string | undefined; method: string | undefined } {
  if (!Array.isArray(call)) return { target: undefined, method: undefined };
  const name = call[0] as string;
  const at = kernel && VAT_ID_FIRST.includes(name) ? 2 : 1;
  switch (name) {
    case 'send':
      return { target: str(call[1]), method: messageMethodOf(call[2]) };
    case 'invoke':
    case 'callNow':
      return { target: str(call[1]), method: str(call[2]) };
    case 'subscribe':
    case 'vatstoreGet':
    case 'vatstoreGetNextKey':
    case 'vatstoreSet':
    case 'vatstoreDelete':
    case 'vatstoreGetAfter':
      return { target: str(call[at]), method: undefined };
    case 'resolve': {
      const list = call[at] as unknown;
      const first = Array.isArray(list) ? (list[0] as unknown) : undefined;
      return { target: Array.isArray(first) ? str(first[0]) : undefined, method: undefined };
    }
    case 'dropImports':
    case 'retireImports':
    case 'retireExports':
    case 'abandonExports': {
      const refs = call.slice(1).find((a: unknown) => Array.isArray(a)) as unknown[] | undefined;
      return { target: refs === undefined ? undefined : str(refs[0]), method: undefined };
    }
    default:
      return { target: undefined, method: undefined };
  }
}

function expectedDelivery(d: unknown): { target: string | undefined; resultPromise: string | undefined } {
  if (!Array.isArray(d)) return { target: undefined, resultPromise: undefined };
  if (d[0] === 'message') {
    const t = d[1] as unknown;
    const target = typeof t === 'string' ? t : t !== null && typeof t === 'object' ? str((t as { kref?: unknown }).kref) : undefined;
    return { target, resultPromise: str((d[2] as { result?: unknown } | null)?.result) };
  }
  if (d[0] === 'notify') {
    const first = Array.isArray(d[1]) ? (d[1][0] as unknown) : undefined;
    return { target: Array.isArray(first) ? str(first[0]) : undefined, resultPromise: undefined };
  }
  return { target: undefined, resultPromise: undefined };
}

describe('every delivery and syscall of every shared slog: the pieces this file finds in the parsed line', () => {
  // The big slog is the bench's (138 MB): its first 20,000 lines stand for it.
  const slogs = sharedSlogs({ bigLines: 20_000 });
  it.each(['fast', 'plain'] as const)('the %s path, with the default export\'s reads', (path) => {
    let deliveries = 0;
    let syscalls = 0;
    let targets = 0;
    let methods = 0;
    for (const { name, bytes } of slogs) {
      const batch = splitLines(bytes);
      const reader = lineReader(mergeReads(MODEL_READS, DEFAULT_EXPORT_READS), { fast: path === 'fast' });
      let crankLines = 0;
      for (let i = 0; i < batch.spans.length / 2; i += 1) {
        const entry = reader.read(batch, i);
        if (entry === undefined || entry instanceof BadLine) continue;
        if (isCrankEntry(entry)) crankLines += 1;
        const where = `${name} line ${i + 1}`;
        let o = JSON.parse(lineText(batch, i)) as Record<string, unknown>;
        // A contextual line's entry is its body.
        if (typeof o.type !== 'string') o = o.body as Record<string, unknown>;
        if (entry.type === 'deliver') {
          deliveries += 1;
          const d = o.kd !== undefined ? o.kd : o.vd;
          const want = expectedDelivery(d);
          expect({ target: entry.target, resultPromise: entry.resultPromise }, where).toEqual(want);
          if (want.target !== undefined) targets += 1;
        } else if (entry.type === 'syscall') {
          syscalls += 1;
          const kernel = o.ksc !== undefined;
          const want = expectedCall(kernel ? o.ksc : o.vsc, kernel);
          expect({ target: entry.target, method: entry.method }, where).toEqual(want);
          if (want.target !== undefined) targets += 1;
          if (want.method !== undefined) methods += 1;
        }
      }
      // The byte reader takes the crank lines of every slog but the contextual one and the 2022 one.
      if (path === 'fast' && !name.endsWith('.jsonl') && !name.startsWith('y2022') && crankLines > 20) {
        expect(reader.linesRead.fast / crankLines, `${name}: share of crank lines the byte reader took`).toBeGreaterThan(0.97);
      }
    }
    expect(deliveries).toBeGreaterThan(5000);
    expect(syscalls).toBeGreaterThan(20000);
    expect(targets).toBeGreaterThan(20000);
    expect(methods).toBeGreaterThan(1000);
  });
});
