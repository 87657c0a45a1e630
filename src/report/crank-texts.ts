/**
 * The text of a few cranks, as `slogulate --nonoise --novatstore --timing`
 * prints them, read again from their files once the report's pass knows
 * which cranks it shows (the top cranks).
 *
 * Why a second read: the report's pass reads most lines as small entries
 * holding only what the figures need (src/input/analysis-lines.ts), which
 * is what keeps it near the speed of `stats`; a crank's text needs its
 * lines whole. This read parses only the lines of the wanted cranks (the
 * others are split off, never decoded) and stops after the last one. A
 * slog read from stdin cannot be read again: the report takes files.
 *
 * The names are the first pass's (vat names learned from the whole slog),
 * so a crank prints as the text render prints it.
 */
import { CrankAssembler } from '../model/assembler.js';
import type { Annotations } from '../model/annotations.js';
import type { Crank } from '../model/crank.js';
import type { VatNames } from '../model/vats.js';
import { readLineSpans, spanText } from '../input/lines.js';
import { openFile, type SlogSource } from '../input/open.js';
import { parseLine } from '../input/parse.js';
import { defaultRenderOptions, type RenderOptions } from '../render/options.js';
import { TextRenderer } from '../render/text-renderer.js';

/** Where a crank lies: its file and the lines from its crank-start to its last entry. */
export interface CrankPlace {
  file: string;
  firstLine: number;
  lastLine: number;
}

export interface CrankTextConfig {
  annotations: Annotations;
  /** The vat names the first pass learned. */
  vats: VatNames;
}

/** The options the report shows cranks with. */
export function reportCrankOptions(): RenderOptions {
  return { ...defaultRenderOptions(), nonoise: true, novatstore: true, timing: true };
}

function chunksOf(source: SlogSource): Iterable<Buffer> | AsyncIterable<Buffer> {
  if (source.syncChunks) return { [Symbol.iterator]: source.syncChunks };
  if (source.chunks) return { [Symbol.asyncIterator]: source.chunks };
  return source.stream;
}

/** The text of each place's crank (its header line, then its lines), read from the files. */
export async function readCrankTexts(places: readonly CrankPlace[], config: CrankTextConfig): Promise<Map<CrankPlace, string>> {
  const texts = new Map<CrankPlace, string>();
  const files = [...new Set(places.map((p) => p.file))];
  for (const file of files) {
    const wanted = places.filter((p) => p.file === file).sort((a, b) => a.firstLine - b.firstLine);
    await readFromFile(file, wanted, config, texts);
  }
  return texts;
}

async function readFromFile(file: string, wanted: CrankPlace[], config: CrankTextConfig, texts: Map<CrankPlace, string>): Promise<void> {
  const byFirstLine = new Map<number, CrankPlace[]>();
  for (const p of wanted) byFirstLine.set(p.firstLine, [...(byFirstLine.get(p.firstLine) ?? []), p]);
  let captured = '';
  const renderer = new TextRenderer({
    options: reportCrankOptions(),
    annotations: config.annotations,
    vats: config.vats,
    printOutside: false,
    out: (text) => {
      captured += text;
    },
  });
  const assembler = new CrankAssembler({
    entry: () => undefined,
    crank: (crank: Crank) => {
      const at = byFirstLine.get(crank.firstLine);
      if (!at) return;
      captured = '';
      renderer.crank(crank);
      // The render puts a blank line before each crank.
      const text = captured.replace(/^\n/, '');
      for (const p of at) texts.set(p, text);
    },
  });
  // Ranges in line order, without overlaps (cranks do not overlap).
  const ranges = [...byFirstLine.values()].map((ps) => ({ first: ps[0]!.firstLine, last: Math.max(...ps.map((p) => p.lastLine)) }));
  let k = 0;
  const source = openFile(file);
  for await (const batch of readLineSpans(chunksOf(source))) {
    const first = batch.firstLine;
    const count = batch.spans.length / 2;
    const last = first + count - 1;
    while (k < ranges.length && ranges[k]!.first <= last) {
      const range = ranges[k]!;
      const from = Math.max(range.first, first);
      const to = Math.min(range.last, last);
      for (let line = from; line <= to; line += 1) {
        const i = line - first;
        const parsed = parseLine(spanText(batch, i), batch.unterminatedLast && i === count - 1);
        // Bad lines were reported by the first pass.
        if (parsed !== undefined && typeof parsed !== 'string') assembler.push(parsed, line);
      }
      if (range.last > last) break;
      k += 1;
    }
    if (k >= ranges.length) break;
  }
  assembler.end();
}
