/**
 * Stand-ins for long lines that name vats, kept in an index (gzip-index.ts,
 * index-builder.ts) in place of the lines themselves.
 *
 * A seek hands the lines that name vats outside its range to the pass,
 * which learns from them (run/pass.ts `learn`) what every learner reads of
 * such a line: the vat a create-vat names (model/vats.ts: `vatID`,
 * `name`), the vat a crank-start's create-vat message names
 * (`message.type`, `message.vatID`, `message.dynamicOptions.name`), and
 * the entry's `time` (top's span: analyses/common/selected-cranks.ts).
 * A create-vat line may carry its vat's bundle (big-local-1200's: about
 * 900 KB), too long to keep in an index whole: a seek then had to read each
 * from the slog (for a .gz, inflate the member that holds it). Its stand-in
 * is the line with only those fields, as JSON.parse reads them: the same
 * to every learner, some 100 bytes.
 *
 * No stand-in is made (the seek reads the line) for a line that is not a
 * slog entry, or whose kept values would not read back the same (a number
 * too big for a double: JSON.stringify writes null).
 */

/** The stand-in for `line` (without its newline), or undefined when it needs none or cannot have one. */
export function namingStandIn(line: Buffer): Buffer | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line.toString('utf8'));
  } catch {
    return undefined;
  }
  if (!isObject(value) || typeof value.type !== 'string') return undefined;
  const kept: Record<string, unknown> = { type: value.type };
  copy(value, kept, 'time');
  if (value.type === 'create-vat') {
    copy(value, kept, 'vatID');
    copy(value, kept, 'name');
  } else if (value.type === 'crank-start' && isObject(value.message)) {
    const message: Record<string, unknown> = {};
    copy(value.message, message, 'type');
    copy(value.message, message, 'vatID');
    const options = value.message.dynamicOptions;
    if (isObject(options)) {
      const dynamicOptions: Record<string, unknown> = {};
      copy(options, dynamicOptions, 'name');
      message.dynamicOptions = dynamicOptions;
    }
    kept.message = message;
  }
  if (!readsBack(kept)) return undefined;
  return Buffer.from(JSON.stringify(kept));
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** `from[key]` to `to`, when `from` has it as its own. */
function copy(from: Record<string, unknown>, to: Record<string, unknown>, key: string): void {
  if (Object.prototype.hasOwnProperty.call(from, key)) to[key] = from[key];
}

/** Every number in `v` is finite: JSON.stringify then writes what JSON.parse read. */
function readsBack(v: unknown): boolean {
  if (typeof v === 'number') return Number.isFinite(v);
  if (Array.isArray(v)) return v.every(readsBack);
  if (isObject(v)) return Object.values(v).every(readsBack);
  return true;
}
