/**
 * The top cranks' text, read again from their files, is the crank's section
 * of `slogulate --nonoise --novatstore --timing` (the reference text in
 * fixtures/reference), from a plain file, a gzipped one, and a slog in two
 * files.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { analysisPass } from '../run/analyses.js';
import { emptyAnnotations, loadAnnotations } from '../model/annotations.js';
import { VatNames } from '../model/vats.js';
import { EveryNCranks } from './bucketing.js';
import { readCrankTexts, type CrankPlace } from './crank-texts.js';
import { REPORT_READS, ReportSide } from './side.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const slog = (name: string): string => join(ROOT, 'fixtures', 'slogs', `${name}.slog`);

/** crank number -> its section of the reference text (header line to the blank line after). */
function referenceSections(name: string): Map<number, string> {
  const text = readFileSync(join(ROOT, 'fixtures', 'reference', name, 'nonoise-novatstore-timing.txt'), 'utf8');
  const sections = new Map<number, string>();
  // A crank's lines may hold blank lines (a console message's own): split only before headers.
  for (const block of text.split(/\n\n(?=\/\/ crank \d+:|\/\/ end of slog)/)) {
    const m = /^\/\/ crank (\d+):/.exec(block);
    if (m) sections.set(Number(m[1]), `${block.replace(/\n$/, '')}\n`);
  }
  return sections;
}

async function topTexts(files: string[]): Promise<Map<number, string>> {
  const annotations = emptyAnnotations();
  const side = new ReportSide({ files, annotations, bucketing: new EveryNCranks(250), topN: 5 });
  await analysisPass({ inputs: files, onOpen: (source) => side.beginFile(source.name) }, REPORT_READS, side);
  const collected = side.result();
  const texts = await readCrankTexts([...collected.places.values()], { annotations, vats: collected.vats });
  const out = new Map<number, string>();
  for (const [row, place] of collected.places) {
    const text = texts.get(place);
    expect(text, `crank ${row.crankNum}`).toBeDefined();
    expect(text?.split('\n')[0]).toBe(row.header);
    out.set(row.crankNum, text as string);
  }
  return out;
}

describe('readCrankTexts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'slogulate-texts-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  for (const name of ['a-local-3', 'a-xs-3', 'b-local-5']) {
    it(`gives each top crank of ${name} as --nonoise --novatstore --timing prints it`, async () => {
      const reference = referenceSections(name);
      const texts = await topTexts([slog(name)]);
      expect(texts.size).toBeGreaterThanOrEqual(5);
      for (const [crankNum, text] of texts) expect(text, `crank ${crankNum}`).toBe(reference.get(crankNum));
    });
  }

  it('reads a gzipped slog and a slog in two files the same way', async () => {
    const plain = await topTexts([slog('a-xs-3')]);
    const gz = join(dir, 'a-xs-3.slog.gz');
    writeFileSync(gz, gzipSync(readFileSync(slog('a-xs-3'))));
    expect(await topTexts([gz])).toEqual(plain);
    // Cut between two cranks, past the middle.
    const lines = readFileSync(slog('a-xs-3'), 'utf8').split('\n');
    const cut = lines.findIndex((l, i) => i > lines.length / 2 && l.startsWith('{"type":"crank-start"'));
    writeFileSync(join(dir, 'part1.slog'), `${lines.slice(0, cut).join('\n')}\n`);
    writeFileSync(join(dir, 'part2.slog'), lines.slice(cut).join('\n'));
    expect(await topTexts([join(dir, 'part1.slog'), join(dir, 'part2.slog')])).toEqual(plain);
  });

  it('names refs, vats and cranks from an annotation file', async () => {
    const annotations = loadAnnotations(join(ROOT, 'fixtures', 'annotations', 'a-local-3.annot.json'));
    const file = slog('a-local-3');
    const side = new ReportSide({ files: [file], annotations, bucketing: new EveryNCranks(250), topN: 5 });
    await analysisPass({ inputs: [file], onOpen: (source) => side.beginFile(source.name) }, REPORT_READS, side);
    const collected = side.result();
    const texts = await readCrankTexts([...collected.places.values()], { annotations, vats: collected.vats });
    // The reference has no --timing: take the times out of ours.
    const reference = new Map<number, string>();
    const text = readFileSync(join(ROOT, 'fixtures', 'reference', 'a-local-3', 'annotated-nonoise-novatstore.txt'), 'utf8');
    for (const block of text.split(/\n\n(?=\/\/ crank \d+:|\/\/ end of slog)/)) {
      const m = /^\/\/ crank (\d+):/.exec(block);
      if (m) reference.set(Number(m[1]), `${block.replace(/\n$/, '')}\n`);
    }
    expect(texts.size).toBeGreaterThanOrEqual(5);
    let named = 0;
    for (const [row, place] of collected.places) {
      const ours = (texts.get(place) as string).replace(/ \[total:.*$/m, '').replace(/ \(\d+µs\)$/gm, '');
      expect(ours, `crank ${row.crankNum}`).toBe(reference.get(row.crankNum));
      if (/<[a-zA-Z]/.test(ours)) named += 1;
    }
    expect(named).toBeGreaterThan(0);
  });

  it('gives nothing for a place that holds no crank', async () => {
    const file = slog('a-local-3');
    const none: CrankPlace = { file, firstLine: 2, lastLine: 3, again: false, opening: 'start' };
    const texts = await readCrankTexts([none], { annotations: emptyAnnotations(), vats: new VatNames() });
    expect(texts.size).toBe(0);
  });
});
