/**
 * A gzipped slog cut at every byte (a `.gz` copied while it was written):
 * each cut renders as the plain bytes zlib can decode of it would (the
 * prefix, decoded here with a sync flush), with the prefix's bad lines, and
 * one warning more naming the line the data ends in; the whole file with
 * none; never an exception (but "not a slog" where the plain slog is one:
 * the whole file, a cut of under two bytes). A cut of under two bytes is no
 * gzip (no magic): it only must not throw otherwise.
 */
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import { PassError, type BadLineReport } from '../../src/run/pass.js';
import { renderSlog } from '../../src/run/render.js';

const NAME = 'cut.slog.gz';
const WARNING = 'gzip data ends early (file truncated, or still being written)';

async function render(bytes: Buffer): Promise<{ text: string; bad: string[] } | Error> {
  const bad: string[] = [];
  try {
    const r = await renderSlog({ inputs: [{ name: NAME, bytes }], onBadLine: (b: BadLineReport) => bad.push(`${b.source}:${b.line}: ${b.why}`) });
    return { text: r.text, bad };
  } catch (err) {
    return err as Error;
  }
}

const isNotASlog = (err: Error): boolean => err instanceof PassError && err.kind === 'not-a-slog';

/**
 * What the plain bytes render as, read to their end as a cut gzip file is
 * (no judging): an input with no slog entry is not a slog (run/pass.ts),
 * while gzip data cut short reports its bad lines. Its bad lines are then
 * those of the bytes after a good entry line (numbered back), its text the
 * empty slog's.
 */
async function renderReadToEnd(bytes: Buffer): Promise<{ text: string; bad: string[] } | Error> {
  const got = await render(bytes);
  if (!(got instanceof Error) || !isNotASlog(got)) return got;
  const bom = bytes.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf])) ? 3 : 0;
  const after = await render(Buffer.concat([Buffer.from('{"type":"oracle-line"}\n'), bytes.subarray(bom)]));
  const empty = await render(Buffer.alloc(0));
  if (after instanceof Error || empty instanceof Error) return after instanceof Error ? after : empty;
  const bad = after.bad.map((b) => b.replace(/^([^:]*):(\d+):/, (_, name: string, line: string) => `${name}:${Number(line) - 1}:`));
  return { text: empty.text, bad };
}

/** What zlib decodes of cut gzip data: every byte it can (nothing of a cut header). */
function prefixOf(cut: Buffer): Buffer {
  try {
    return gunzipSync(cut, { finishFlush: constants.Z_SYNC_FLUSH });
  } catch {
    return Buffer.alloc(0);
  }
}

/** Lines ended by `\n` (a BOM first does not change the count). */
const wholeLines = (bytes: Buffer): number => bytes.reduce((n, b) => (b === 10 ? n + 1 : n), 0);

/** Every cut of `plain` gzipped (at `level`), or the cuts given; the first problem, or undefined. */
export async function checkGzipCuts(plain: Buffer, cuts?: readonly number[], level = 6): Promise<string | undefined> {
  const gz = gzipSync(plain, { level });
  const whole = await render(plain);
  if (whole instanceof Error && !isNotASlog(whole)) return `the plain slog threw: ${whole.message}`;
  for (const k of cuts ?? Array.from({ length: gz.length + 1 }, (_, i) => i)) {
    const got = await render(gz.subarray(0, k));
    if (k < 2) {
      if (got instanceof Error && !isNotASlog(got)) return `cut at byte ${k} of ${gz.length}: threw ${got.message}`;
      continue;
    }
    if (k === gz.length) {
      if (whole instanceof Error) {
        if (!(got instanceof Error) || got.message !== whole.message) return `the plain slog is not a slog (${whole.message}), the whole gzip file is`;
        continue;
      }
      if (got instanceof Error) return `cut at byte ${k} of ${gz.length}: threw ${got.message}`;
      if (got.text !== whole.text || got.bad.join('\n') !== whole.bad.join('\n')) return `the whole gzip file does not read as the plain slog: ${got.bad.join(' | ')}`;
      continue;
    }
    if (got instanceof Error) return `cut at byte ${k} of ${gz.length}: threw ${got.message}`;
    const prefix = prefixOf(gz.subarray(0, k));
    const want = await renderReadToEnd(prefix);
    if (want instanceof Error) return `cut at byte ${k}: its plain prefix threw ${want.message}`;
    const n = wholeLines(prefix);
    const warning = `${NAME}:${n + 1}: ${WARNING}: ${n > 0 ? `read up to line ${n}` : 'no whole line in it'}`;
    const wantBad = [...want.bad, warning];
    if (got.bad.join('\n') !== wantBad.join('\n')) return `cut at byte ${k} of ${gz.length}: bad lines ${JSON.stringify(got.bad)}, the plain prefix's and one warning: ${JSON.stringify(wantBad)}`;
    if (got.text !== want.text) return `cut at byte ${k} of ${gz.length}: the render differs from the plain prefix's`;
  }
  return undefined;
}
