/**
 * Lines for what a vat asks the kernel: one syscall paired with its result.
 * Kernel-space `ksc` shapes carry the vat ID where the vat-space `vsc` do not:
 * `['subscribe', vatID, kpid]` vs `['subscribe', vpid]`.
 */
import type { SyscallPair } from '../model/crank.js';
import type { RenderContext } from './context.js';
import { inline, micros } from './format.js';
import { renderCallArgs, renderCapData, renderMethargs } from './values.js';

export const VATSTORE_SYSCALLS = new Set(['vatstoreGet', 'vatstoreGetNextKey', 'vatstoreSet', 'vatstoreDelete']);

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

/** The syscall's own line(s), without its result. */
function callText(ctx: RenderContext, name: string, args: unknown[], tag: string): string {
  const ks = ctx.kernelSpace;
  switch (name) {
    case 'send': {
      // kernel: [target, {methargs, result}]; vat: the same, or older [target, methargs, result]
      const target = args[0];
      const third = args[1] as { methargs?: unknown; result?: unknown } | undefined;
      const msg = third && 'methargs' in third ? third : { methargs: third, result: args[2] };
      const { method, args: argText } = renderMethargs(msg.methargs, ctx.value);
      return `${tag}: ${ctx.ref(target)} <- ${method}(${argText}): ${ctx.ref(msg.result)}`;
    }
    case 'resolve': {
      const resolutions = (ks ? args[1] : args[0]) as unknown[][] | undefined;
      if (!Array.isArray(resolutions)) return `${tag}: unintelligible resolutions`;
      const single = resolutions.length === 1;
      return resolutions
        .map(([target, rejected, value], idx) => {
          const how = rejected ? 'reject' : 'fulfill';
          const index = single ? '' : ` ${idx}`;
          return `${tag}${index} ${how}: ${ctx.ref(target)} := ${renderCapData(value, ctx.value)}`;
        })
        .join('\n');
    }
    case 'invoke':
    case 'callNow':
      return `${tag}: ${ctx.ref(args[0])}.${inline(args[1])}(${renderCallArgs(args[2], ctx.value)})`;
    case 'subscribe':
      return `${tag}: ${ctx.ref(ks ? args[1] : args[0])}`;
    case 'vatstoreGet':
    case 'vatstoreGetNextKey':
    case 'vatstoreDelete':
      return `${tag}: '${inline(ks ? args[1] : args[0])}'`;
    case 'vatstoreSet':
      return `${tag}: '${inline(ks ? args[1] : args[0])}' := '${inline(ks ? args[2] : args[1])}'`;
    case 'dropImports':
    case 'retireImports':
    case 'retireExports':
    case 'abandonExports': {
      const refs = args.find((a) => Array.isArray(a));
      const list = Array.isArray(refs) ? refs.map((r) => ctx.ref(r)).join(' ') : '';
      return `send-${ctx.tag(name, `syscall ${name}`)}: [${list}]`;
    }
    case 'exit': {
      const failure = ks ? args[1] : args[0];
      const info = ks ? args[2] : args[1];
      return `${tag}: (${failure ? 'failure' : 'success'}) ${renderCapData(info, ctx.value)}`;
    }
    default:
      return `syscall: unknown syscall ${name}`;
  }
}

/**
 * The lines of one syscall: a `result:` line first when its status is not ok,
 * then the syscall's line(s), dropped by --novatstore (vatstore) or --nonoise
 * (subscribe), with ` (17µs)` under --timing.
 */
export function syscallLines(ctx: RenderContext, pair: SyscallPair): string[] {
  const call = (ctx.kernelSpace ? pair.call.ksc : pair.call.vsc) as unknown[] | undefined;
  if (!Array.isArray(call)) return [`syscall: no ${ctx.kernelSpace ? 'ksc' : 'vsc'} in entry`];
  const name = String(call[0]);
  const tag = ctx.tag(name, `syscall ${name}`);
  const lines: string[] = [];
  const sr = pair.result ? ((ctx.kernelSpace ? pair.result.ksr : pair.result.vsr) as unknown[] | undefined) : undefined;
  const [status, value] = Array.isArray(sr) ? sr : [undefined, undefined];
  if (pair.result && status !== 'ok') {
    lines.push(`${ctx.tag('result', `syscall-result ${name}`)}: ${inline(status)} ${inline(value)}`);
  }
  const { options } = ctx;
  if (VATSTORE_SYSCALLS.has(name) && options.novatstore) return lines;
  if (name === 'subscribe' && options.nonoise && (value === null || value === undefined)) return lines;

  let text = callText(ctx, name, call.slice(1), tag);
  if (pair.result) {
    if (NULL_RESULT.has(name)) {
      if (value !== null && value !== undefined) text = `${text}: unexpected result ${inline(value)}`;
    } else if (name === 'invoke' || name === 'callNow') {
      text = `${text}: ${renderCapData(value, ctx.value)}`;
    } else if (name === 'vatstoreGet' || name === 'vatstoreGetNextKey') {
      text = `${text} : '${value === null ? 'null' : inline(value)}'`;
    }
  }
  if (options.timing && !options.noTimes && pair.result) text = `${text} (${micros(pair.seconds)})`;
  lines.push(text);
  return lines;
}
