/**
 * The export's pass (export/export.ts calls it once per input slog): the
 * tables' reads, each crank counted once as the analyses count it (an
 * execution a restart abandoned is not exported), bad lines reported.
 */
import type { SlogPass } from '../export/export.js';
import { analysisPass } from './analyses.js';
import type { BadLineReport } from './pass.js';
import { settingsFrom, type PassSettings } from './pass-settings.js';

/** The pass for each input slog, all reading as `settings` say (default: the switches', read once here). */
export function exportPass(onBadLine?: (bad: BadLineReport) => void, settings: PassSettings = settingsFrom()): SlogPass {
  return async (file, sink, afterBatch, observe, reads) => {
    const run = await analysisPass({ inputs: file === undefined ? [] : [file], onBadLine, afterBatch, settings }, reads, sink, observe);
    return { name: run.name };
  };
}
