/**
 * Lines the text render reads without parsing them whole.
 *
 * The render prints a few fields of each entry: a syscall's `ksc` (`vsc`
 * with --vatspace) and time, a result's `ksr` and time, a delivery's `kd`,
 * a crank-start's number, type and message type and vat... For the lines
 * that make up nearly all of a slog (syscall, syscall-result, deliver,
 * deliver-result, crank-start, crank-finish, clist, all in the slogger's
 * usual shape) a small entry is built holding just what the render reads
 * with these options (lite-entries.ts), read from the line by a LineScan
 * (line-scan.ts) with the values JSON.parse would give. The rest of the line
 * is only delimited, not checked: a line whose unused parts are corrupt is
 * not reported, but the line's end is checked, so a truncated line is. Any
 * other line, or one not in the usual shape (keys in another order, spaces,
 * another type of value), is parsed whole.
 *
 * test/fast-paths.test.ts checks that the text is the same, byte for byte,
 * with and without these shortcuts, on every shared slog and option set;
 * test/lite-entries.test.ts that every line of them renders the same either
 * way, and hand-made lines.
 */
import type { SyscallEntry } from '../model/types.js';
import type { RenderOptions } from '../render/options.js';
import type { LineParser } from './entries.js';
import { LiteReader } from './lite-entries.js';
import { parseLine } from './parse.js';

/** Where the line being read will go: the assembler that will get its entry. */
export interface LineContext {
  readonly inCrank: boolean;
  readonly awaitingResult: boolean;
  /** The syscall waiting for its result, if any (its name tells what of the result the render reads). */
  readonly pendingSyscall?: SyscallEntry | undefined;
}

/**
 * The line parser for a text render with these options. `where` is the crank
 * assembler the entries go to, read as each line is: a small entry is only
 * made where the renderer is known to read no more of it (inside a crank; a
 * syscall-result only for a waiting syscall). Elsewhere, say a syscall-result
 * without its syscall, the renderer prints the whole entry, so the whole
 * line is parsed.
 */
export function renderLineParser(options: RenderOptions, where: LineContext): LineParser {
  const reader = new LiteReader(options, where);
  return (text, unterminated) => reader.read(text) ?? parseLine(text, unterminated);
}
