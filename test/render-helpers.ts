/**
 * In-process rendering of hand-made slog lines, for edge cases the real slogs
 * do not have: the lines are read as a slog is (slog-lines.ts: both readers,
 * with the render's reads), assembled into cranks and rendered.
 */
import { CrankAssembler } from '../src/model/assembler.js';
import { emptyAnnotations, type Annotations } from '../src/model/annotations.js';
import { defaultRenderOptions, type RenderOptions } from '../src/render/options.js';
import { renderReads } from '../src/render/reads.js';
import { TextRenderer } from '../src/render/text-renderer.js';
import { readEntries, type Line } from './slog-lines.js';

export type { Line } from './slog-lines.js';

export function renderEntries(
  lines: Line[],
  options: Partial<RenderOptions> = {},
  annotations: Annotations = emptyAnnotations(),
): string {
  let text = '';
  const all = { ...defaultRenderOptions(), ...options };
  const entries = readEntries(lines, renderReads(all));
  const renderer = new TextRenderer({
    options: all,
    annotations,
    out: (t) => {
      text += t;
    },
  });
  const assembler = new CrankAssembler(renderer);
  renderer.begin();
  entries.forEach((entry, i) => {
    renderer.observe(entry);
    assembler.push(entry, i + 1);
  });
  assembler.end();
  renderer.end();
  return text;
}

/** The lines of a render without the startup/end frame and crank headers. */
export function bodyLines(entries: Line[], options: Partial<RenderOptions> = {}, annotations?: Annotations): string[] {
  return renderEntries(entries, { crankbreaks: false, ...options }, annotations)
    .split('\n')
    .filter((l) => l !== '');
}

/** smallcaps capdata */
export const sc = (value: unknown, slots: string[] = []) => ({ body: `#${JSON.stringify(value)}`, slots });
/** legacy capdata */
export const legacy = (value: unknown, slots: string[] = []) => ({ body: JSON.stringify(value), slots });

/** A delivery crank around `inner` entries. */
export function deliveryCrank(crankNum: number, vatID: string, inner: Array<Omit<Line, 'type'> & { type: string }>, t0 = 100): Line[] {
  return [
    { type: 'crank-start', crankType: 'delivery', crankNum, message: { type: 'send', vatID }, time: t0 },
    ...inner.map((e) => ({ crankNum, vatID, ...e })),
    { type: 'crank-finish', crankType: 'delivery', crankNum, time: t0 + 0.001 },
  ];
}
