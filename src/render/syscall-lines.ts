/**
 * Lines for what a vat asks the kernel: one syscall paired with its result.
 * Kernel-space `ksc` shapes carry the vat ID where the vat-space `vsc` do not:
 * `['subscribe', vatID, kpid]` vs `['subscribe', vpid]`.
 */
import type { SyscallPair } from '../model/crank.js';
import type { RenderContext } from './context.js';
import { inline, joinMapped, micros } from './format.js';
import { renderCallArgs, renderCapData, renderMethargs } from './values.js';
import { isVatstore, printedName, syscallCall, type SyscallCall } from '../model/syscall-call.js';


/** Syscalls whose result is always null: anything else is printed as unexpected. */
const NULL_RESULT = new Set([
  'exit',
  'resolve',
  'send',
  'subscribe',
  'dropImports',
  'retireImports',
  'retireExports',
  'abandonExports',
  'vatstoreSet',
  'vatstoreDelete',
]);

/** A vatstore key or value as printed: `'vc.3.|entryCount'`. */
function quoted(value: unknown): string {
  return `'${inline(value)}'`;
}

/** The syscall's own line(s), without its result. */
function callText(ctx: RenderContext, call: SyscallCall, tag: string): string {
  switch (call.name) {
    case 'send': {
      const { method, args } = renderMethargs(call.methargs, ctx.value);
      return `${tag}: ${ctx.ref(call.target)} <- ${method}(${args}): ${ctx.result(call.result)}`;
    }
    case 'resolve': {
      const resolutions = call.resolutions;
      if (resolutions === undefined) return `${tag}: unintelligible resolutions`;
      const single = resolutions.length === 1;
      return joinMapped(
        resolutions,
        ({ target, rejected, data }, idx) => {
          const how = rejected ? 'reject' : 'fulfill';
          const index = single ? '' : ` ${idx}`;
          return `${tag}${index} ${how}: ${ctx.ref(target)} := ${renderCapData(data, ctx.value)}`;
        },
        '\n',
      );
    }
    case 'invoke':
    case 'callNow':
      return `${tag}: ${ctx.ref(call.target)}.${inline(call.method)}(${renderCallArgs(call.args, ctx.value)})`;
    case 'subscribe':
      return `${tag}: ${ctx.ref(call.target)}`;
    case 'vatstoreGet':
    case 'vatstoreGetNextKey':
    case 'vatstoreDelete':
      return `${tag}: ${quoted(call.key)}`;
    case 'vatstoreSet':
      return `${tag}: ${quoted(call.key)} := ${quoted(call.value)}`;
    case 'vatstoreGetAfter': {
      const upper = typeof call.upperBound === 'string' ? ` ${quoted(call.upperBound)}` : '';
      return `${tag}: ${quoted(call.priorKey)} ${quoted(call.lowerBound)}${upper}`;
    }
    case 'dropImports':
    case 'retireImports':
    case 'retireExports':
    case 'abandonExports': {
      const list = call.refs ? joinMapped(call.refs, (r) => ctx.ref(r), ' ') : '';
      return `send-${ctx.tag(call.name, `syscall ${call.name}`)}: [${list}]`;
    }
    case 'exit':
      return `${tag}: (${call.failure ? 'failure' : 'success'}) ${renderCapData(call.info, ctx.value)}`;
    case 'unknown':
      return `syscall: unknown syscall ${call.called}`;
  }
}

/** A vatstoreGetAfter's result, `[key, value]`: `['vc.4.1', '...']`, `[null, null]`. */
function keyValue(value: unknown): string {
  if (!Array.isArray(value)) return inline(value);
  return `[${joinMapped(value as unknown[], (v) => (v === null ? 'null' : quoted(v)), ', ')}]`;
}

/**
 * The lines of one syscall: a `result:` line first when its status is not ok,
 * then the syscall's line(s), dropped by --novatstore (vatstore) or --nonoise
 * (subscribe), with ` (17µs)` under --timing.
 */
export function syscallLines(ctx: RenderContext, pair: SyscallPair): string[] {
  const lines: string[] = [];
  appendSyscallLines(ctx, pair, lines);
  return lines;
}

/** syscallLines(), pushed onto `out`. */
export function appendSyscallLines(ctx: RenderContext, pair: SyscallPair, out: string[]): void {
  const ks = ctx.kernelSpace;
  const { options } = ctx;
  // Under --novatstore a vatstore syscall's arguments were not read (render/reads.ts): its name decides first,
  // and all its lines go, its failure's `result:` line too.
  if (options.novatstore && isVatstore(pair.call.name)) return;
  const args = ks ? pair.call.ksc : pair.call.vsc;
  if (!Array.isArray(args)) {
    out.push(`syscall: no ${ks ? 'ksc' : 'vsc'} in entry`);
    return;
  }
  // An older kernel's `callNow` prints as `invoke` in kernel space.
  const name = printedName(String(args[0]), ks);
  const result = pair.result;
  let status: unknown;
  let value: unknown;
  // A vatstore syscall's result paired with another syscall (a damaged slog) was not read either.
  if (result && !(options.novatstore && isVatstore(result.name))) {
    const sr = ks ? result.ksr : result.vsr;
    if (Array.isArray(sr)) {
      status = sr[0];
      value = sr[1];
    }
    if (status !== 'ok') out.push(`${options.usesloggertags ? `syscall-result ${name}` : 'result'}: ${inline(status)} ${inline(value)}`);
  }
  if (name === 'subscribe' && options.nonoise && (value === null || value === undefined)) return;

  let text = callText(ctx, syscallCall(args, ks), options.usesloggertags ? `syscall ${name}` : name);
  // What the syscall gave back, after it; a failed one gave nothing back (its `result:` line above says what went wrong).
  if (result && status === 'ok') {
    if (NULL_RESULT.has(name)) {
      if (value !== null && value !== undefined) text = `${text}: unexpected result ${inline(value)}`;
    } else if (name === 'invoke' || name === 'callNow') {
      text = `${text}: ${renderCapData(value, ctx.value)}`;
    } else if (name === 'vatstoreGet' || name === 'vatstoreGetNextKey') {
      text = `${text} : '${value === null ? 'null' : inline(value)}'`;
    } else if (name === 'vatstoreGetAfter') {
      text = `${text} : ${keyValue(value)}`;
    }
  }
  if (result && options.timing && !options.noTimes) text = `${text} (${micros(pair.seconds)})`;
  out.push(text);
}
