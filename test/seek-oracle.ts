/**
 * What a seek must print, by plain loops (test/gzip-index.test.ts,
 * test/plain-index.test.ts): a slog's lines with their byte offsets, the
 * range a selection must read, and the render and top of a selection
 * seeking and reading every byte, compared.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { SelectionSpec } from '../src/analyses/common/selection.js';
import { topOf } from '../src/run/analyses.js';
import { settingsFrom } from '../src/run/pass-settings.js';
import { renderSlog } from '../src/run/render.js';
import type { SeekPlan, SeekRange } from '../src/source/seek.js';
import { expectSameText, slogPath } from './helpers.js';

export const SEEK = settingsFrom();
export const WHOLE = { ...settingsFrom(), seek: false };

export const isPlan = (p: unknown): p is SeekPlan => typeof p === 'object' && p !== null && 'start' in p;

/** A line of a slog and its byte offset. */
export interface Placed {
  at: number;
  e: Record<string, unknown>;
}

/** A slog's lines with their byte offsets, read by a plain loop (a line that is no JSON: an empty object). */
export function placed(bytes: Buffer): Placed[] {
  const out: Placed[] = [];
  for (let at = 0; at < bytes.length; ) {
    let nl = bytes.indexOf(10, at);
    if (nl < 0) nl = bytes.length;
    const text = bytes.subarray(at, nl).toString('utf8').trim();
    if (text) {
      try {
        out.push({ at, e: JSON.parse(text) as Record<string, unknown> });
      } catch {
        out.push({ at, e: {} });
      }
    }
    at = nl + 1;
  }
  return out;
}

/**
 * The numbers (`key`) of the `type` lines in the slog's last kernel run
 * above the highest that any run before its restart reached: the cranks
 * (blocks) a selection may seek to.
 */
export function afterRestart(lines: readonly Placed[], type: string, key: 'crankNum' | 'blockHeight'): number[] {
  const floor = lines.filter((l) => l.e.type === 'kernel-init-start').pop()?.at ?? 0;
  const ran = Math.max(...lines.filter((l) => l.at < floor && l.e.type === type).map((l) => l.e[key] as number));
  return lines.filter((l) => l.at >= floor && l.e.type === type && (l.e[key] as number) > ran).map((l) => l.e[key] as number);
}

/** The range a selection must read, by a plain loop: from its first crank's (block's) opener to the first line of a later one, in the last kernel run; from the head when nothing keyed comes before. */
export function expectedRange(bytes: Buffer, range: SeekRange): { start: number; end: number } {
  const lines = placed(bytes);
  const starts = lines.filter((l) => l.e.type === 'kernel-init-start');
  const floor = starts.length > 1 ? (starts[starts.length - 1] as { at: number }).at : 0;
  const keyOf = (l: { e: Record<string, unknown> }): number | undefined => {
    const k = l.e[range.key];
    if (typeof k !== 'number') return undefined;
    if (range.key === 'blockHeight' && !String(l.e.type).startsWith('cosmic-swingset-')) return undefined;
    return k;
  };
  const after = lines.filter((l) => l.at >= floor);
  const first = after.find((l) => (keyOf(l) ?? -1) >= range.from);
  if (first === undefined) return { start: bytes.length, end: bytes.length };
  const last = after.find((l) => l.at > first.at && (keyOf(l) ?? -1) > range.to);
  const lower = after.some((l) => l.at < first.at && keyOf(l) !== undefined);
  return { start: floor === 0 && !lower ? 0 : first.at, end: last?.at ?? bytes.length };
}

/** The render (two option sets) and top of `file` with `selection`, seeking and reading every byte: the same. Returns the render's seek. */
export async function expectSame(file: string, selection: SelectionSpec): Promise<unknown> {
  let seek: unknown;
  for (const options of [{}, { timing: true, parts: true }]) {
    const a = await renderSlog({ inputs: [file], selection, options, settings: SEEK });
    const b = await renderSlog({ inputs: [file], selection, options, settings: WHOLE });
    expectSameText(a.text, b.text, `render ${JSON.stringify(options)} ${JSON.stringify(selection)}`);
    expect(b.seek).toBeUndefined();
    seek = a.seek;
  }
  const ta = await topOf({ inputs: [file], selection, n: 5, settings: SEEK });
  const tb = await topOf({ inputs: [file], selection, n: 5, settings: WHOLE });
  expect(JSON.stringify(ta.top)).toBe(JSON.stringify(tb.top));
  expect(ta.cranksSelected).toBe(tb.cranksSelected);
  return seek;
}

export const cranks = (from: number, to: number): SelectionSpec => ({ cranks: [{ from, to }] });

/**
 * a-local-3 written to `file` with a line that is no slog entry (a deliver
 * cut short) just before crank `crank`'s first line: the bad line's number
 * in the file (1-based).
 */
export function withBadLineBefore(file: string, crank: number): number {
  const text = readFileSync(slogPath('a-local-3'), 'utf8').split('\n');
  const at = text.findIndex((l) => l !== '' && (JSON.parse(l) as Record<string, unknown>).crankNum === crank);
  writeFileSync(file, [...text.slice(0, at), '{"type":"deliver", cut short', ...text.slice(at)].join('\n'));
  return at + 1;
}

/** The render of `file`'s selection seeking and reading every byte, each with the numbers of the bad lines it reported. */
export async function renderBothWithBadLines(file: string, selection: SelectionSpec) {
  const seekBad: number[] = [];
  const wholeBad: number[] = [];
  const seek = await renderSlog({ inputs: [file], selection, settings: SEEK, onBadLine: (b) => seekBad.push(b.line) });
  const whole = await renderSlog({ inputs: [file], selection, settings: WHOLE, onBadLine: (b) => wholeBad.push(b.line) });
  return { seek, whole, seekBad, wholeBad };
}
