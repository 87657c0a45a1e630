/**
 * The byte reader reads every line it takes exactly as the plain path reads
 * it, for every consumer's reads: every line of every shared slog (clean and
 * as nodes write them), and hand-made lines for the shapes the slogs lack.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGGREGATE_READS } from '../analyses/stats/aggregate.js';
import { TOP_READS } from '../analyses/top/top.js';
import { GROWTH_READS } from '../analyses/growth/growth.js';
import { DEFAULT_EXPORT_READS, EXPORT_READS } from '../export/reads.js';
import { REPORT_READS } from '../report/side.js';
import { SERIES_READS } from '../report/series.js';
import { MODEL_READS } from '../model/reads.js';
import { defaultRenderOptions } from '../render/options.js';
import { renderReads } from '../render/reads.js';
import { RENDER_OPTION_SETS } from '../render/option-sets.test-helpers.js';
import { lineText, splitLines, type LineBatch } from '../source/lines.js';
import { FastReader } from './fast-reader.js';
import { BadLine, readPlainLine } from './plain-reader.js';
import { planReads, type ReadPlan } from './read-plan.js';
import { mergeReads, READ_ALL, type Reads } from './reads.js';
import { lineReader } from './line-reader.js';
import { sharedSlogs } from './shared-slogs.test-helpers.js';
import { topOf } from '../run/analyses.js';
import type { BadLineReport } from '../run/pass.js';
import { settingsFrom, strictSettings } from '../run/pass-settings.js';

const ROOT = join(import.meta.dirname, '..', '..');


const CONSUMERS: Record<string, Reads> = {
  model: MODEL_READS,
  everything: READ_ALL,
  // Every option set test/paths.test.ts renders with (it renders the biggest real slog with the first only: the rest is checked here, line by line).
  ...Object.fromEntries(RENDER_OPTION_SETS.map((o) => [`render ${JSON.stringify(o)}`, renderReads({ ...defaultRenderOptions(), ...o })])),
  'render --vatspace --novatstore': renderReads({ ...defaultRenderOptions(), vatspace: true, novatstore: true }),
  aggregate: AGGREGATE_READS,
  top: TOP_READS,
  growth: GROWTH_READS,
  // compare and stats read growth's fields in the aggregate's pass.
  'aggregate and growth': mergeReads(AGGREGATE_READS, GROWTH_READS),
  export: EXPORT_READS,
  // The default tables: a delivery's and syscall's pieces read from the bytes, not from the whole kd or ksc.
  'export (default tables)': DEFAULT_EXPORT_READS,
  report: REPORT_READS,
  'report series': SERIES_READS,
};

function plans(): Array<[string, ReadPlan]> {
  return Object.entries(CONSUMERS).map(([name, reads]) => [name, planReads(mergeReads(MODEL_READS, reads))]);
}

/**
 * The same entry: the same keys in the same order (the makers give both
 * one order; a field set on one side only shows), each the same value:
 * numbers by Object.is (-0 is not 0), anything else by its JSON.
 */
function sameEntry(a: object, b: object): boolean {
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x);
  const other = Object.keys(y);
  if (keys.length !== other.length) return false;
  for (let i = 0; i < keys.length; i += 1) {
    const key = keys[i] as string;
    if (key !== other[i]) return false;
    const u = x[key];
    const v = y[key];
    if (Object.is(u, v)) continue;
    if (typeof u !== 'object' || typeof v !== 'object' || u === null || v === null || JSON.stringify(u) !== JSON.stringify(v)) return false;
  }
  return true;
}

/** Reads every line both ways; returns how many lines the byte reader took, and fails on the first difference. */
function compareLines(batch: LineBatch, plan: ReadPlan, where: string): { taken: number; crankLines: number } {
  const fast = new FastReader(plan);
  let taken = 0;
  let crankLines = 0;
  for (let i = 0; i < batch.spans.length / 2; i += 1) {
    const text = lineText(batch, i);
    const plain = readPlainLine(text, plan);
    const entry = fast.read(batch, batch.spans[2 * i] as number, batch.spans[2 * i + 1] as number);
    if (plain !== undefined && !(plain instanceof BadLine) && ['crank-start', 'crank-finish', 'syscall', 'syscall-result', 'deliver', 'deliver-result', 'clist'].includes(plain.type)) {
      crankLines += 1;
    }
    if (entry === undefined) continue;
    taken += 1;
    if (plain === undefined || plain instanceof BadLine) throw new Error(`${where} line ${i + 1}: the byte reader took a line the plain path rejects: ${text.slice(0, 200)}`);
    // Field for field (the makers give both the same key order); on a difference, vitest shows which.
    if (!sameEntry(entry, plain)) {
      expect(entry, `${where} line ${batch.firstLine + i}: ${text.slice(0, 300)}`).toStrictEqual(plain);
    }
  }
  return { taken, crankLines };
}

describe('every line of every shared slog reads the same both ways', () => {
  const slogs = sharedSlogs();
  it.each(plans())('%s', (_name, plan) => {
    for (const { name, bytes } of slogs) {
      const { taken, crankLines } = compareLines(splitLines(bytes), plan, name);
      // The byte reader takes the crank lines of every slog but the contextual one and the 2022 one.
      if (!name.endsWith('.jsonl') && !name.startsWith('y2022') && crankLines > 20) {
        expect(taken / crankLines, `${name}: share of crank lines the byte reader took`).toBeGreaterThan(0.97);
      }
    }
  });
});

/** A slog of hand-made lines, each compared for every consumer. */
function compareHandMade(lines: string[]): number {
  let taken = 0;
  for (const [name, plan] of plans()) taken += compareLines(splitLines(Buffer.from(lines.join('\n'))), plan, name).taken;
  return taken;
}

const SYSCALL = '{"type":"syscall","crankNum":7,"vatID":"v1","deliveryNum":1,"syscallNum":0,"replay":false,"syscall":"vatstoreGet","ksc":["vatstoreGet","v1","idCounters"],"vsc":["vatstoreGet","idCounters"],"time":1795404511.715977,"monotime":43.309045749999996}';

describe('hand-made lines', () => {
  it('the usual line is taken', () => {
    expect(compareHandMade([SYSCALL])).toBe(Object.keys(CONSUMERS).length);
  });

  it('methods read from a body\'s bytes (symbols, escapes, non-ASCII, long names, no comma, other shapes) are those the plain path finds', () => {
    const deliver = (body: string): string =>
      `{"type":"deliver","crankNum":12,"vatID":"v4","deliveryNum":2,"replay":false,"dispatch":"message","kd":["message","ko22",{"methargs":{"body":${JSON.stringify(body)},"slots":[]},"result":"kp46"}],"vd":["message","o+0",{"methargs":{"body":"#[]","slots":[]},"result":"p-60"}],"time":1795403706.027612,"monotime":44.188611233}`;
    const bodies = [
      '#["openAccount",[]]',
      '["openAccount",[]]',
      '#["%asyncIterator",[]]',
      '#["!%escaped",[]]',
      '#["#undefined",[]]',
      '#["$0.Alleged: x",[]]',
      '#["with\\"quote",[]]',
      '#["back\\\\slash",[]]',
      '#["caf\u00e9",[]]',
      '#["tab\there",[]]',
      `#["${'m'.repeat(390)}",[]]`,
      `#["${'m'.repeat(396)}",[]]`,
      `#["${'m'.repeat(600)}",[]]`,
      `#["%${'m'.repeat(600)}",[]]`,
      `#["!${'m'.repeat(600)}",[]]`,
      '#["spaced" , []]',
      '#[null,[]]',
      '#["unclosed',
      '#{"not":"an array"}',
      '[{"@qclass":"symbol","name":"foo"},[]]',
    ];
    const lines = bodies.map(deliver);
    expect(compareHandMade(lines)).toBeGreaterThan(0);
    const plan = planReads(mergeReads(MODEL_READS, AGGREGATE_READS));
    const batch = splitLines(Buffer.from(lines.join('\n')));
    const fast = new FastReader(plan);
    const methods = lines.map((_, i) => (fast.read(batch, batch.spans[2 * i] as number, batch.spans[2 * i + 1] as number) as { method?: string } | undefined)?.method);
    expect(methods.slice(0, 5)).toEqual(['openAccount', 'openAccount', '[asyncIterator]', '%escaped', '<funcall>']);
  });

  it('2021 messages ({method, args, result}): read as the plain path reads them, their method named as today\'s', () => {
    const deliver = (message: string, vdMessage = message): string =>
      `{"type":"deliver","crankNum":12,"vatID":"v4","deliveryNum":2,"replay":false,"dispatch":"message","kd":["message","ko22",${message}],"vd":["message","o+0",${vdMessage}],"time":1795403706.027612,"monotime":44.188611233}`;
    const send = (message: string): string =>
      `{"type":"syscall","crankNum":12,"vatID":"v4","deliveryNum":2,"syscallNum":0,"replay":false,"syscall":"send","ksc":["send","ko30",${message}],"vsc":["send","o-50",${message}],"time":1795403706.1,"monotime":44.2}`;
    const messages = [
      '{"method":"openAccount","args":{"body":"[\\"x0\\",0]","slots":[]},"result":"kp46"}',
      '{"method":"deposit","args":{"body":"[{\\"@qclass\\":\\"slot\\",\\"index\\":0},10]","slots":["ko31"]},"result":"kp60"}',
      '{"method":{"@qclass":"symbol","name":"asyncIterator"},"args":{"body":"[]","slots":[]},"result":"kp61"}',
      '{"method":"ping","args":{"body":"[]","slots":[]}}',
      '{"method":"open\\u0041ccount","args":{"body":"[]","slots":[]},"result":null}',
      '{"method":"smallcaps","args":{"body":"#[\\"$0.Alleged: x\\"]","slots":["ko1"]},"result":"kp1"}',
      '{"args":{"body":"[1]","slots":[]},"result":"kp2"}',
      '{"method":"noArgs","result":"kp3"}',
      // A method found at the start of the body, as in today's shape, whatever follows it.
      '{"method":"badArgs","args":{"body":"[1","slots":[]},"result":"kp4"}',
    ];
    const lines = [
      ...messages.map((m) => deliver(m)),
      ...messages.map(send),
      // kd today's shape, vd 2021's (the method is kd's).
      deliver('{"methargs":{"body":"#[\\"openAccount\\",[]]","slots":[]},"result":"kp46"}', messages[0]),
      '{"type":"crank-start","crankType":"routing","crankNum":4,"messageType":"send","message":{"type":"send","target":"ko22","msg":{"method":"openAccount","args":{"body":"[\\"x0\\",0]","slots":[]},"result":"kp46"}},"time":1795403706.027353,"monotime":44.18835249}',
    ];
    compareHandMade(lines);
    const plan = planReads(mergeReads(MODEL_READS, AGGREGATE_READS));
    const batch = splitLines(Buffer.from(lines.join('\n')));
    const methods = messages.map((_, i) => (readPlainLine(lineText(batch, i), plan) as { method?: string }).method);
    expect(methods).toEqual(['openAccount', 'deposit', '[asyncIterator]', 'ping', 'openAccount', 'smallcaps', '<funcall>', '<unintelligible method>', 'badArgs']);
  });

  it('damaged, reordered or unusual lines: never read otherwise than by the plain path', () => {
    const lines = [
      SYSCALL.replace('"crankNum":7,"vatID":"v1"', '"vatID":"v1","crankNum":7'),
      SYSCALL.replace('"time":1795404511.715977', '"time":1.795404511715977e9'),
      SYSCALL.replace('"vatID":"v1"', '"vatID" : "v1"'),
      SYSCALL.replace('"vatID":"v1"', '"vatID":"v\\u0031"'),
      SYSCALL.slice(0, 120),
      SYSCALL.slice(0, -1),
      `${SYSCALL.slice(0, 150)}${SYSCALL.slice(170)}`,
      SYSCALL.replace('"crankNum":7', '"crankNum":"7"'),
      SYSCALL.replace('"replay":false', '"replay":true').replace(/"crankNum":7,/, '').replace(/"ksc":\[[^\]]*\],/, ''),
      SYSCALL.replace('"syscall":"vatstoreGet",', ''),
      SYSCALL.replace('"ksc":["vatstoreGet"', '"ksc":["callNow"'),
      '{"type":"syscall-result","crankNum":7,"vatID":"v1","deliveryNum":1,"syscallNum":0,"replay":false,"syscall":"vatstoreGet","ksr":["error","no such key"],"vsr":["error","no such key"],"time":1795404511.716686,"monotime":43.309751629,"seconds":0.0005655959999930929}',
      '{"type":"deliver-result","crankNum":11,"vatID":"v4","deliveryNum":1,"replay":false,"dispatch":"startVat","dr":["error","vat exploded",null],"time":1795403705.41186,"monotime":43.57}',
      '{"type":"deliver-result","crankNum":11,"vatID":"v4","deliveryNum":1,"replay":false,"dispatch":"startVat","dr":["ok",null,{"compute":1,"compute":2e3}],"time":1795403705.41186,"monotime":43.57}',
      // Worker timestamps: usual, empty, exponents and integers, not numbers, not a list, twice (the last counts), spaced, too big for a double, with compute after.
      '{"type":"deliver-result","crankNum":11,"vatID":"v4","deliveryNum":1,"replay":false,"dispatch":"startVat","dr":["ok",null,{"compute":5,"timestamps":[1795403705.400182,1795403705.400367]}],"time":1795403705.41186,"monotime":43.57}',
      '{"type":"deliver-result","crankNum":11,"vatID":"v4","deliveryNum":1,"replay":false,"dispatch":"startVat","dr":["ok",null,{"compute":5,"timestamps":[]}],"time":1795403705.41186,"monotime":43.57}',
      '{"type":"deliver-result","crankNum":11,"vatID":"v4","deliveryNum":1,"replay":false,"dispatch":"startVat","dr":["ok",null,{"timestamps":[1.7954037054e9,1795403705,-0,0.5]}],"time":1795403705.41186,"monotime":43.57}',
      '{"type":"deliver-result","crankNum":11,"vatID":"v4","deliveryNum":1,"replay":false,"dispatch":"startVat","dr":["ok",null,{"timestamps":[1795403705.4,null,"x",[1],{"a":1}]}],"time":1795403705.41186,"monotime":43.57}',
      '{"type":"deliver-result","crankNum":11,"vatID":"v4","deliveryNum":1,"replay":false,"dispatch":"startVat","dr":["ok",null,{"timestamps":null}],"time":1795403705.41186,"monotime":43.57}',
      '{"type":"deliver-result","crankNum":11,"vatID":"v4","deliveryNum":1,"replay":false,"dispatch":"startVat","dr":["ok",null,{"timestamps":"soon"}],"time":1795403705.41186,"monotime":43.57}',
      '{"type":"deliver-result","crankNum":11,"vatID":"v4","deliveryNum":1,"replay":false,"dispatch":"startVat","dr":["ok",null,{"timestamps":[1,2],"timestamps":[3]}],"time":1795403705.41186,"monotime":43.57}',
      '{"type":"deliver-result","crankNum":11,"vatID":"v4","deliveryNum":1,"replay":false,"dispatch":"startVat","dr":["ok",null,{"timestamps":[ 1, 2 ]}],"time":1795403705.41186,"monotime":43.57}',
      '{"type":"deliver-result","crankNum":11,"vatID":"v4","deliveryNum":1,"replay":false,"dispatch":"startVat","dr":["ok",null,{"timestamps":[1e999,2]}],"time":1795403705.41186,"monotime":43.57}',
      '{"type":"deliver-result","crankNum":11,"vatID":"v4","deliveryNum":1,"replay":false,"dispatch":"startVat","dr":["ok",null,{"timestamps":[1,2],"compute":7}],"time":1795403705.41186,"monotime":43.57}',
      '{"type":"deliver-result","crankNum":11,"vatID":"v4","deliveryNum":1,"replay":false,"dispatch":"startVat","dr":["ok",null,{"timestamps":[1,2}],"time":1795403705.41186,"monotime":43.57}',
      '{"type":"deliver","crankNum":12,"vatID":"v4","deliveryNum":2,"replay":false,"dispatch":"message","kd":["message","ko22",{"methargs":{"body":"#[\\"open\\\\u0041ccount\\",[]]","slots":[]},"result":"kp46"}],"vd":["message","o+0",{"methargs":{"body":"#[\\"openAccount\\",[]]","slots":[]},"result":"p-60"}],"time":1795403706.027612,"monotime":44.188611233}',
      '{"type":"crank-start","crankType":"delivery","crankNum":12,"messageType":"send","message":{"type":"send","target":"ko1","msg":{"vatID":"v9"}},"time":1795403706.027353,"monotime":44.18835249}',
      '{"type":"crank-start","crankType":"delivery","crankNum":12,"messageType":"notify","message":{"type":"notify","kpid":"kp4","vatID":"v9"},"time":1795403706.027353,"monotime":44.18835249}',
      // "vatID" looked for further on in a message: a near miss first, then the key at the very end; a longer key; the word as a value.
      '{"type":"crank-start","crankType":"delivery","crankNum":12,"messageType":"send","message":{"type":"send","target":"ko1","x":"vatI","y":"vatIDx","vatID":"v9"},"time":1795403706.027353,"monotime":44.18835249}',
      '{"type":"crank-start","crankType":"delivery","crankNum":12,"messageType":"send","message":{"type":"send","target":"ko1","vatIDs":["v9"]},"time":1795403706.027353,"monotime":44.18835249}',
      '{"type":"crank-start","crankType":"delivery","crankNum":12,"messageType":"send","message":{"type":"send","target":"ko1","x":"vatID"},"time":1795403706.027353,"monotime":44.18835249}',
      '{"type":"crank-start","crankType":"delivery","crankNum":12,"messageType":"send","message":{"type":"send","target":"ko1","x":"\\"vatID\\""},"time":1795403706.027353,"monotime":44.18835249}',
      // A message longer than the span searched by a loop (the native search then): a vatID after 5,000 bytes, and none.
      `{"type":"crank-start","crankType":"delivery","crankNum":12,"messageType":"send","message":{"type":"send","target":"ko1","x":"${'y'.repeat(5000)}","vatID":"v9"},"time":1795403706.027353,"monotime":44.18835249}`,
      `{"type":"crank-start","crankType":"delivery","crankNum":12,"messageType":"send","message":{"type":"send","target":"ko1","x":"${'y'.repeat(5000)}"},"time":1795403706.027353,"monotime":44.18835249}`,
      '{"type":"clist","crankNum":20,"mode":"import","vatID":"v1","kobj":"ko22","vobj":"o-50","time":1655402420.651674,"monotime":7.762973879039287,"extra":1}',
      '{"type":"crank-finish","crankType":"routing","messageType":"startVat","crankNum":0,"time":1,"monotime":2,"seconds":-0}',
      // Usual lines with one thing missing or unusual: vsr or vd missing, a vatID further on, an escape.
      '{"type":"syscall-result","crankNum":7,"vatID":"v1","deliveryNum":1,"syscallNum":0,"replay":false,"syscall":"vatstoreGet","ksr":["ok",null],"time":1795404511.716686,"monotime":43.309751629,"seconds":0.0005}',
      '{"type":"deliver","crankNum":12,"vatID":"v4","deliveryNum":2,"replay":false,"dispatch":"notify","kd":["notify",[["kp1",false,{"body":"#1","slots":[]}]]],"time":1795403706.027612,"monotime":44.188611233}',
      '{"type":"deliver","crankNum":12,"vatID":"v4","deliveryNum":2,"replay":false,"dispatch":"bringOutYourDead","kd":["bringOutYourDead"],"vd":["bringOutYourDead"],"time":1795403706.027612,"monotime":44.188611233}',
      '{"type":"deliver-result","crankNum":11,"vatID":"v4","deliveryNum":1,"replay":false,"dispatch":"startVat","dr":["ok",null,{"compute":1}],"time":1795403705.41186,"monotime":43.57,"seconds":0.5}',
      '{"type":"crank-start","crankType":"delivery","crankNum":12,"messageType":"notify","message":{"type":"notify","kpid":"kp4"},"time":1795403706.027353,"monotime":44.18835249}',
      '{"type":"crank-finish","crankType":"delivery","messageType":"send","crankNum":12,"crankhash":"ab","activityhash":"cd","time":1795403706.1,"monotime":44.2,"seconds":0.072}',
      '{"type":"crank-finish","crankType":"delivery","messageType":"send","crankNum":12,"crankhash":"ab","activityhash":"cd","time":1795403706.1,"monotime":44.2}',
      '{"type":"clist","crankNum":20,"mode":"import","vatID":"v1","kobj":"ko\\u0032","vobj":"o-50","time":1655402420.651674,"monotime":7.76}',
      '{"body":{"type":"clist","crankNum":20,"mode":"import","vatID":"v1","kobj":"ko22","vobj":"o-50"},"attributes":{},"time":1}',
    ];
    compareHandMade(lines);
  });
});

describe("a line's type: the whole name, not the letters it is told by", () => {
  it('a name of the same length differing in any one byte (or its closing quote) is never read as the crank type', () => {
    const usual = [
      SYSCALL,
      '{"type":"syscall-result","crankNum":7,"vatID":"v1","deliveryNum":1,"syscallNum":0,"replay":false,"syscall":"vatstoreGet","ksr":["ok",null],"vsr":["ok",null],"time":1795404511.716686,"monotime":43.309751629,"seconds":0.0005}',
      '{"type":"deliver","crankNum":12,"vatID":"v4","deliveryNum":2,"replay":false,"dispatch":"bringOutYourDead","kd":["bringOutYourDead"],"vd":["bringOutYourDead"],"time":1795403706.027612,"monotime":44.188611233}',
      '{"type":"deliver-result","crankNum":11,"vatID":"v4","deliveryNum":1,"replay":false,"dispatch":"startVat","dr":["ok",null,{"compute":1}],"time":1795403705.41186,"monotime":43.57}',
      '{"type":"crank-start","crankType":"delivery","crankNum":12,"messageType":"notify","message":{"type":"notify","kpid":"kp4","vatID":"v9"},"time":1795403706.027353,"monotime":44.18835249}',
      '{"type":"crank-finish","crankType":"delivery","messageType":"send","crankNum":12,"crankhash":"ab","activityhash":"cd","time":1795403706.1,"monotime":44.2,"seconds":0.072}',
      '{"type":"clist","crankNum":20,"mode":"import","vatID":"v1","kobj":"ko22","vobj":"o-50","time":1655402420.651674,"monotime":7.76}',
    ];
    expect(compareHandMade(usual)).toBe(usual.length * Object.keys(CONSUMERS).length);
    const others: string[] = [];
    for (const line of usual) {
      const name = /^\{"type":"([^"]*)"/.exec(line)?.[1] as string;
      // Each byte of the name, and the quote after it (`{"type":"` is 9 bytes).
      for (let i = 0; i <= name.length; i += 1) {
        const at = 9 + i;
        const other = line.charAt(at) === 'x' ? 'y' : 'x';
        others.push(line.slice(0, at) + other + line.slice(at + 1));
      }
    }
    // None taken: the plain path reads each as a line of another type, which the byte reader must not make a crank entry.
    expect(compareHandMade(others)).toBe(0);
  });
});

describe('damage inside a value: seen where a field is read, not where one is only derived (docs/architecture.md, "How the fast paths are kept honest")', () => {
  it('a damaged ksr (status asked for, ksr not the last key) goes to the plain path, which reports it', () => {
    const plan = planReads(mergeReads(MODEL_READS, { ...AGGREGATE_READS, 'syscall-result': ['status'] }));
    const line = '{"type":"syscall-result","crankNum":7,"vatID":"v1","deliveryNum":1,"syscallNum":0,"replay":false,"syscall":"vatstoreGet","ksr":["ok",nul],"vsr":["ok",null],"time":1795404511.716686,"monotime":43.309751629,"seconds":0.0005}';
    const batch = splitLines(Buffer.from(line));
    expect(new FastReader(plan).read(batch, batch.spans[0] as number, batch.spans[1] as number)).toBeUndefined();
    expect(readPlainLine(lineText(batch, 0), plan)).toBeInstanceOf(BadLine);
  });

  // A delivery read for its method only (top, stats): the method comes from kd's head, the rest of kd and vd is not read.
  const DAMAGED_KD = [
    // A notify's kd cut short after its head.
    '{"type":"deliver","crankNum":12,"vatID":"v4","deliveryNum":2,"replay":false,"dispatch":"notify","kd":["notify",[["kp1",false,{"body":"#1","slots":[]]]],"vd":["notify",[]],"time":1795403706.027612,"monotime":44.188611233}',
    // The method readable from the body's first bytes, a bad escape after it, kd the last key.
    '{"type":"deliver","crankNum":12,"vatID":"v4","deliveryNum":2,"replay":false,"dispatch":"message","kd":["message","ko22",{"methargs":{"body":"#[\\"open\\",[\\q]]","slots":[]},"result":"kp46"}],"time":1795403706.027612,"monotime":44.188611233}',
    // The same with a vd after it; and the arguments' array left unclosed.
    '{"type":"deliver","crankNum":12,"vatID":"v4","deliveryNum":2,"replay":false,"dispatch":"message","kd":["message","ko22",{"methargs":{"body":"#[\\"open\\",[\\q]]","slots":[]},"result":"kp46"}],"vd":["message","o+0",{"methargs":{"body":"#[\\"open\\",[]]","slots":[]},"result":"p-60"}],"time":1795403706.027612,"monotime":44.188611233}',
    '{"type":"deliver","crankNum":12,"vatID":"v4","deliveryNum":2,"replay":false,"dispatch":"message","kd":["message","ko22",{"methargs":{"body":"#[\\"open\\",[]]","slots":[]},"result":"kp46"],"vd":["message","o+0",{"methargs":{"body":"#[\\"open\\",[]]","slots":[]},"result":"p-60"}],"time":1795403706.027612,"monotime":44.188611233}',
  ];

  it('a damaged kd after the method (method asked for): by default an entry, its method from kd\'s head, counted as lenient; the plain path reports it', () => {
    for (const reads of [AGGREGATE_READS, TOP_READS]) {
      const plan = planReads(mergeReads(MODEL_READS, reads));
      const batch = splitLines(Buffer.from(DAMAGED_KD.join('\n')));
      const reader = lineReader(mergeReads(MODEL_READS, reads));
      for (let i = 0; i < DAMAGED_KD.length; i += 1) {
        expect(readPlainLine(lineText(batch, i), plan), DAMAGED_KD[i]).toBeInstanceOf(BadLine);
        const entry = reader.read(batch, i) as { type: string; kind: string; method?: string };
        expect(entry.type, DAMAGED_KD[i]).toBe('deliver');
        expect(entry.kind).toBe(i === 0 ? 'notify' : 'message');
        expect(entry.method).toBe(i === 0 ? undefined : 'open');
      }
      expect(reader.linesRead).toEqual({ fast: DAMAGED_KD.length, plain: 0, big: 0, lenient: DAMAGED_KD.length });
    }
  });

  it('with --strict\'s settings, each is a bad line naming the file and line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slogulate-fast-reader-'));
    try {
      // A real slog with the damaged deliveries in it, after its first 1,300 lines.
      const real = readFileSync(join(ROOT, 'fixtures', 'slogs', 'a-local-3.slog'), 'utf8').split('\n');
      const file = join(dir, 'damaged-kd.slog');
      writeFileSync(file, [...real.slice(0, 1300), ...DAMAGED_KD, ...real.slice(1300)].join('\n'));
      const where = DAMAGED_KD.map((_, i) => 1301 + i);
      const lenient = await topOf({ inputs: [file], n: 5, settings: settingsFrom() });
      expect(lenient.pass.badLines).toBe(0);
      expect(lenient.pass.read.lenient).toBeGreaterThanOrEqual(DAMAGED_KD.length);
      const bad: BadLineReport[] = [];
      const strict = await topOf({ inputs: [file], n: 5, settings: strictSettings(settingsFrom()), onBadLine: (b) => bad.push(b) });
      expect(strict.pass.badLines).toBe(DAMAGED_KD.length);
      expect(bad.map((b) => [b.source, b.line])).toEqual(where.map((line) => [file, line]));
      expect(strict.pass.read).toEqual({ fast: 0, plain: strict.pass.lines, big: 0, lenient: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
