/**
 * `slogulate sequence`'s Mermaid text, parsed by Mermaid 11 itself in the
 * project's headless Chromium (test/browser.ts), and its SVG opened there:
 * the text of a chain-A run
 * and of hand-made steps whose method names, arguments and vat names are
 * made to break the grammar; one message per delivery of the selection
 * (counted by the plain loop, test/why-loop.ts), each label read back as
 * written.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diagramOf } from '../src/analyses/sequence/arrows.js';
import { escapeLabel, mermaidText } from '../src/analyses/sequence/mermaid.js';
import { svgText } from '../src/analyses/sequence/svg.js';
import type { Step } from '../src/analyses/why/step.js';
import { openBrowser, type TestBrowser } from './browser.js';
import { ROOT } from './helpers.js';
import { runInProcess } from './run-main.js';
import { loopCauses } from './why-loop.js';

const CHAIN_A = join(ROOT, '..', 'shared', 'slogs', 'real', 'chain-A.slog');
const MERMAID = join(ROOT, 'node_modules', 'mermaid', 'dist', 'mermaid.min.js');

let browser: TestBrowser;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  browser = await openBrowser();
  page = await browser.context.newPage();
  page.on('pageerror', (e) => problems.push(e.message));
  await page.setContent('<!doctype html><html><body></body></html>');
  await page.addScriptTag({ content: readFileSync(MERMAID, 'utf8') });
  await page.evaluate(() => (globalThis as any).mermaid.initialize({ startOnLoad: false }));
}, 600_000);

afterAll(async () => {
  await browser?.close();
});

/** Mermaid's own reading of the text: it parses, and its messages (from, to, text as Mermaid decodes it). */
async function parsed(text: string): Promise<{ ok: boolean; error?: string; messages: { from: string; to: string; text: string }[] }> {
  return page.evaluate(async (source) => {
    const m = (globalThis as any).mermaid;
    try {
      await m.parse(source);
    } catch (err) {
      return { ok: false, error: String((err as Error).message ?? err), messages: [] };
    }
    const diagram = await m.mermaidAPI.getDiagramFromText(source);
    const messages = (diagram.db.getMessages() as any[])
      .filter((msg) => msg.from !== undefined && msg.to !== undefined)
      .map((msg) => ({ from: String(msg.from), to: String(msg.to), text: String(msg.message) }));
    return { ok: true, messages };
  }, text);
}

/** Mermaid's `#code;` entities decoded, as it draws them (its parser keeps them as `ﬂ°°code¶ß` until it draws). */
function decoded(text: string): string {
  return text.replace(/(?:#|ﬂ°°)(\d+)(?:;|¶ß)/g, (_m, code: string) => String.fromCodePoint(Number(code)));
}

function step(crankNum: number, vatID: string, vatName: string, line: string, from: string | undefined, delivery = 'message'): Step {
  return {
    crankNum,
    vatID,
    delivery,
    time: 1,
    cause: from === undefined ? { kind: 'outside', crank: -1, vat: undefined, syscallNum: -1, time: undefined, trigger: 'bridge "x" -->> y' } : { kind: 'send', crank: crankNum - 1, vat: from, syscallNum: 0, time: 0.5 },
    queueMicros: 1,
    vatName,
    label: undefined,
    line,
    finish: 2,
    run: undefined,
  };
}

describe('sequence diagrams in Mermaid', () => {
  it('chain-A block 73 run 2: Mermaid parses the text, one message per delivery crank of the run', async () => {
    const r = await runInProcess(['sequence', '--run', '73/2', CHAIN_A]);
    expect(r.status).toBe(0);
    const deliveries = loopCauses(CHAIN_A).causes.filter((c) => c.run === '73/2');
    const result = await parsed(r.stdout);
    expect(result.error).toBeUndefined();
    expect(result.messages.length).toBe(deliveries.length);
    // Each arrow ends at the vat that received the delivery, in slog order.
    expect(result.messages.map((m) => m.to)).toEqual(deliveries.map((c) => `p_${c.vat}`));
    expect(problems).toEqual([]);
  }, 120_000);

  it('--cranks and --why on a-local-3: one message per delivery crank chosen, what no vat sent from outside', async () => {
    const file = join(ROOT, 'fixtures', 'slogs', 'a-local-3.slog');
    const loop = loopCauses(file).causes;
    const ranged = await runInProcess(['sequence', '--cranks', '20-60', file]);
    expect(ranged.status).toBe(0);
    const inRange = loop.filter((c) => c.crank >= 20 && c.crank <= 60);
    const parsedRange = await parsed(ranged.stdout);
    expect(parsedRange.error).toBeUndefined();
    expect(parsedRange.messages.map((m) => [m.from, m.to])).toEqual(inRange.map((c) => [c.causeCrank >= 0 ? `p_${loop.find((d) => d.crank === c.causeCrank)?.vat}` : 'p_outside', `p_${c.vat}`]));
    const why = await runInProcess(['sequence', '--why', '15', file]);
    const parsedWhy = await parsed(why.stdout);
    expect(parsedWhy.error).toBeUndefined();
    const reach = new Set([15]);
    for (const c of loop) if (reach.has(c.causeCrank)) reach.add(c.crank);
    expect(parsedWhy.messages.length).toBe(reach.size);
    expect(parsedWhy.messages[0]?.from).toBe('p_outside');
  }, 120_000);

  it('labels that would break the grammar parse, and read back as written', async () => {
    const awkward = [
      'deliver: @ko1 <- a;b(1): @kp2',
      'deliver: @ko1 <- %%comment(): @kp3',
      'deliver: @ko1 <- end(#35;, "quote"): @kp4',
      'deliver: @ko1 <- x\ny->>z: w(): @kp5',
      'deliver: @ko1 <- <br/>[Symbol.asyncIterator]({a: "}"}): @kp6',
      'deliver: @ko1 <- note over p_v1: hi(): @kp7',
      'deliver: @ko1 <- 💥ünï(\'\\u0000\'): @kp8',
      'deliver: @ko1 <- participant(): @kp9',
      'fulfilled: @kp2 := {x: ":-->>"}',
    ];
    const steps = awkward.map((line, i) => step(10 + i, i % 2 ? 'v1' : 'v2', i % 2 ? 'v1 alice; end' : 'v2 %%bob "#1"', line, i === 0 ? undefined : i % 2 ? 'v2' : 'v1', line.startsWith('fulfilled') ? 'notify' : 'message'));
    const diagram = diagramOf(steps);
    const text = mermaidText(diagram);
    const result = await parsed(text);
    expect(result.error).toBeUndefined();
    expect(result.messages.length).toBe(awkward.length);
    expect(result.messages.map((m) => decoded(m.text))).toEqual(diagram.arrows.map((a) => a.label));
    expect(problems).toEqual([]);
  });

  it('escapes every character but letters, digits and a few signs', () => {
    expect(escapeLabel('a;b:c')).toBe('a#59;b#58;c');
    expect(escapeLabel('💥')).toBe('#128165;');
    expect(decoded(escapeLabel('x\n%%y#z'))).toBe('x\n%%y#z');
  });

  it('a selection past --max-arrows says so and exits 1', async () => {
    const r = await runInProcess(['sequence', '--run', '73/2', '--max-arrows', '3', CHAIN_A]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/more than 3 arrows is too long to read; narrow the selection/);
  });
});

describe('sequence diagrams as SVG', () => {
  it('chain-A block 73 run 2: the SVG opens in Chromium without errors, one arrow per delivery, each label as written', async () => {
    const r = await runInProcess(['sequence', '--run', '73/2', '--format', 'svg', CHAIN_A]);
    expect(r.status).toBe(0);
    const deliveries = loopCauses(CHAIN_A).causes.filter((c) => c.run === '73/2');
    const svgPage = await browser.context.newPage();
    const errors: string[] = [];
    const requests: string[] = [];
    svgPage.on('pageerror', (e) => errors.push(e.message));
    svgPage.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    svgPage.on('request', (q) => requests.push(q.url()));
    await svgPage.route('**/*', (route) => route.abort());
    await svgPage.setContent(r.stdout);
    const drawn = await svgPage.evaluate(() => ({
      arrows: Array.from(document.querySelectorAll('g.arrow')).map((g) => ({ title: g.querySelector('title')?.textContent ?? '', kind: g.getAttribute('class') })),
      participants: Array.from(document.querySelectorAll('g.participant title')).map((t) => t.textContent),
      width: (document.querySelector('svg') as SVGSVGElement).getBBox().width,
    }));
    expect(errors).toEqual([]);
    expect(requests.filter((u) => !u.startsWith('about:') && !u.startsWith('data:'))).toEqual([]);
    expect(drawn.arrows.length).toBe(deliveries.length);
    expect(drawn.arrows.map((a) => Number(a.title.split(':')[0]))).toEqual(deliveries.map((c) => c.crank));
    expect(drawn.arrows.filter((a) => a.kind === 'arrow notify').length).toBe(deliveries.filter((c) => c.delivery === 'notify').length);
    expect(drawn.participants[0]).toMatch(/^trigger: mailbox /);
    expect(drawn.width).toBeGreaterThan(0);
    await svgPage.close();
  }, 120_000);

  it('hand-made labels and names made to break XML come back as written', async () => {
    const awkward = ['deliver: @ko1 <- a</text><script>x()</script>(&amp;): @kp2', 'deliver: @ko1 <- "\'\u0001(): @kp3'];
    const steps = awkward.map((line, i) => step(20 + i, 'v1', 'v1 <b>&"', line, i ? 'v1' : undefined));
    const text = svgText(diagramOf(steps));
    const svgPage = await browser.context.newPage();
    const errors: string[] = [];
    svgPage.on('pageerror', (e) => errors.push(e.message));
    await svgPage.setContent(text);
    const titles = await svgPage.evaluate(() => Array.from(document.querySelectorAll('g.arrow title')).map((t) => t.textContent));
    expect(errors).toEqual([]);
    expect(titles).toEqual(diagramOf(steps).arrows.map((a) => a.label.replace('\u0001', '\ufffd')));
    expect(await svgPage.evaluate(() => document.querySelectorAll('script').length)).toBe(0);
    await svgPage.close();
  });
});
