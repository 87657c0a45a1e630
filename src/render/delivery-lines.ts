/**
 * Lines for what a vat receives (`deliver`) and how it went (`deliver-result`).
 */
import type { Delivery, DeliverEntry, DeliverResultEntry } from '../scan/entry-types.js';
import { messageMethargs } from '../scan/message.js';
import type { RenderContext } from './context.js';
import { inline, joinMapped } from './format.js';
import { renderCapData, renderMethargs, renderValue } from './values.js';

/** A message of either shape (today's `{methargs, result}`, 2021's `{method, args, result}`: scan/message.ts). */
function messageLine(ctx: RenderContext, target: unknown, msg: unknown): string {
  const { method, args } = renderMethargs(messageMethargs(msg), ctx.value);
  const result = msg !== null && typeof msg === 'object' ? (msg as { result?: unknown }).result : undefined;
  return `deliver: ${ctx.ref(target)} <- ${method}(${args}): ${ctx.result(result)}`;
}

/**
 * `notify` resolutions: kernel shape `[kpid, {state, data}]`, vat shape
 * `[vpid, rejected, data]`.
 */
function notifyLines(ctx: RenderContext, resolutions: unknown): string[] {
  if (!Array.isArray(resolutions)) return [`notify: unintelligible resolutions ${inline(resolutions)}`];
  const single = resolutions.length === 1;
  // A loop, not `map`: see joinMapped (format.ts).
  const lines: string[] = [];
  for (let idx = 0; idx < resolutions.length; idx += 1) lines.push(notifyLine(ctx, resolutions[idx] as unknown[], idx, single));
  return lines;
}

/** One resolution of a `notify`. */
function notifyLine(ctx: RenderContext, resolution: unknown[], idx: number, single: boolean): string {
  const [target, second] = resolution;
  let state: unknown;
  let data: unknown;
  if (typeof second === 'boolean') {
    state = second ? 'rejected' : 'fulfilled';
    data = resolution[2];
  } else {
    const r = (second ?? {}) as { state?: unknown; data?: unknown };
    state = r.state;
    data = r.data;
  }
  if (state !== 'fulfilled' && state !== 'rejected') return `notify: unknown state "${String(state)}"`;
  const tag = ctx.tag(state, `notify ${state}`);
  const index = single ? '' : `${idx} `;
  return `${tag}: ${index}${ctx.ref(target)} := ${renderCapData(data, ctx.value)}`;
}

function refList(ctx: RenderContext, refs: unknown): string {
  return Array.isArray(refs) ? joinMapped(refs as unknown[], (r) => ctx.ref(r), ' ') : inline(refs);
}

/** The lines of one delivery (`kd` in kernel space, `vd` in vat space). */
export function deliveryLines(ctx: RenderContext, entry: DeliverEntry): string[] {
  const delivery = (ctx.kernelSpace ? entry.kd : entry.vd) as Delivery | undefined;
  if (!Array.isArray(delivery)) return [`deliver: no ${ctx.kernelSpace ? 'kd' : 'vd'} in entry`];
  const [kind, a, b] = delivery;
  switch (kind) {
    case 'message':
      return [messageLine(ctx, a, b)];
    case 'notify':
      return notifyLines(ctx, a);
    case 'dropExports':
    case 'retireExports':
    case 'retireImports':
      return [`recv-${kind}: [${refList(ctx, a)}]`];
    case 'startVat':
      return [`startVat: ${renderCapData(a, ctx.value)}`];
    case 'bringOutYourDead':
      return ['bringOutYourDead'];
    case 'stopVat':
      return [`stopVat: ${renderCapData(a, ctx.value)}`];
    case 'changeVatOptions':
      return [`changeVatOptions: ${renderValue(a, [], false, ctx.value)}`];
    default:
      return [`deliver: unknown deliver type "${String(kind)}"`];
  }
}

/** Nothing when the delivery went well; `deliver-result: <status> <problem>` otherwise. */
export function deliverResultLines(entry: DeliverResultEntry): string[] {
  const status = entry.status;
  if (status === undefined || status === 'ok') return [];
  return [`deliver-result: ${status} ${inline(entry.problem)}`];
}
