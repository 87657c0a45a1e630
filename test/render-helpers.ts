/**
 * In-process rendering of hand-made entries, for edge cases the real slogs
 * do not have.
 */
import { CrankAssembler } from '../src/model/assembler.js';
import { emptyAnnotations, type Annotations } from '../src/model/annotations.js';
import type { SlogEntry } from '../src/model/types.js';
import { defaultRenderOptions, type RenderOptions } from '../src/render/options.js';
import { TextRenderer } from '../src/render/text-renderer.js';

export function renderEntries(
  entries: SlogEntry[],
  options: Partial<RenderOptions> = {},
  annotations: Annotations = emptyAnnotations(),
): string {
  let text = '';
  const renderer = new TextRenderer({
    options: { ...defaultRenderOptions(), ...options },
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
export function bodyLines(entries: SlogEntry[], options: Partial<RenderOptions> = {}, annotations?: Annotations): string[] {
  return renderEntries(entries, { crankbreaks: false, ...options }, annotations)
    .split('\n')
    .filter((l) => l !== '');
}

/** smallcaps capdata */
export const sc = (value: unknown, slots: string[] = []) => ({ body: `#${JSON.stringify(value)}`, slots });
/** legacy capdata */
export const legacy = (value: unknown, slots: string[] = []) => ({ body: JSON.stringify(value), slots });

/** A delivery crank around `inner` entries. */
export function deliveryCrank(crankNum: number, vatID: string, inner: SlogEntry[], t0 = 100): SlogEntry[] {
  return [
    { type: 'crank-start', crankType: 'delivery', crankNum, message: { type: 'send', vatID }, time: t0 },
    ...inner.map((e) => ({ crankNum, vatID, ...e })),
    { type: 'crank-finish', crankType: 'delivery', crankNum, time: t0 + 0.001 },
  ];
}
