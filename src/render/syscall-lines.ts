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

/** The syscall's own line(s), without its result. `call` is the ksc/vsc: its arguments start at 1. */
function callText(ctx: RenderContext, name: string, call: unknown[], tag: string): string {
  const ks = ctx.kernelSpace;
  switch (name) {
    case 'send': {
      // kernel: [target, {methargs, result}]; vat: the same, or older [target, methargs, result]
      const target = call[1];
      const third = call[2] as { methargs?: unknown; result?: unknown } | undefined;
      const msg = third && 'methargs' in third ? third : { methargs: third, result: call[3] };
      const { method, args: argText } = renderMethargs(msg.methargs, ctx.value);
      return `${tag}: ${ctx.ref(target)} <- ${method}(${argText}): ${ctx.ref(msg.result)}`;
    }
    case 'resolve': {
      const resolutions = (ks ? call[2] : call[1]) as unknown[][] | undefined;
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
      return `${tag}: ${ctx.ref(call[1])}.${inline(call[2])}(${renderCallArgs(call[3], ctx.value)})`;
    case 'subscribe':
      return `${tag}: ${ctx.ref(ks ? call[2] : call[1])}`;
    case 'vatstoreGet':
    case 'vatstoreGetNextKey':
    case 'vatstoreDelete':
      return `${tag}: '${inline(ks ? call[2] : call[1])}'`;
    case 'vatstoreSet':
      return `${tag}: '${inline(ks ? call[2] : call[1])}' := '${inline(ks ? call[3] : call[2])}'`;
    case 'dropImports':
    case 'retireImports':
    case 'retireExports':
    case 'abandonExports': {
      // The first argument that is a list.
      let refs: unknown;
      for (let i = 1; i < call.length && refs === undefined; i += 1) if (Array.isArray(call[i])) refs = call[i];
      const list = Array.isArray(refs) ? refs.map((r) => ctx.ref(r)).join(' ') : '';
      return `send-${ctx.tag(name, `syscall ${name}`)}: [${list}]`;
    }
    case 'exit': {
      const failure = ks ? call[2] : call[1];
      const info = ks ? call[3] : call[2];
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
  const lines: string[] = [];
  appendSyscallLines(ctx, pair, lines);
  return lines;
}

/** syscallLines(), pushed onto `out`. */
export function appendSyscallLines(ctx: RenderContext, pair: SyscallPair, out: string[]): void {
  const ks = ctx.kernelSpace;
  const call = (ks ? pair.call.ksc : pair.call.vsc) as unknown[] | undefined;
  if (!Array.isArray(call)) {
    out.push(`syscall: no ${ks ? 'ksc' : 'vsc'} in entry`);
    return;
  }
  const name = String(call[0]);
  const { options } = ctx;
  const result = pair.result;
  let status: unknown;
  let value: unknown;
  if (result) {
    const sr = ks ? result.ksr : result.vsr;
    if (Array.isArray(sr)) {
      status = sr[0];
      value = sr[1];
    }
    if (status !== 'ok') out.push(`${options.usesloggertags ? `syscall-result ${name}` : 'result'}: ${inline(status)} ${inline(value)}`);
  }
  if (options.novatstore && VATSTORE_SYSCALLS.has(name)) return;
  if (name === 'subscribe' && options.nonoise && (value === null || value === undefined)) return;

  let text = callText(ctx, name, call, options.usesloggertags ? `syscall ${name}` : name);
  if (result) {
    if (NULL_RESULT.has(name)) {
      if (value !== null && value !== undefined) text = `${text}: unexpected result ${inline(value)}`;
    } else if (name === 'invoke' || name === 'callNow') {
      text = `${text}: ${renderCapData(value, ctx.value)}`;
    } else if (name === 'vatstoreGet' || name === 'vatstoreGetNextKey') {
      text = `${text} : '${value === null ? 'null' : inline(value)}'`;
    }
    if (options.timing && !options.noTimes) text = `${text} (${micros(pair.seconds)})`;
  }
  out.push(text);
}
