/**
 * The life of one kref (`slogulate kref KREF`): a summary from the kref
 * model (how it was made, who resolved it, who exports it, its drop and
 * retirement), then every crank that mentions it, under the crank's header,
 * each line as the text render prints it, tagged with the kref's role there:
 *
 *     // crank 33: v7 bob
 *     [result] deliver: @ko22 <- openAccount("bob", 100): @kp44
 *     [resolved] resolve fulfill: @kp44 := @ko30
 *
 * Routing cranks and entries outside cranks are not listed (the render
 * prints no line naming their krefs). Only the mentioning lines are kept.
 */
import type { Crank, CrankItem } from '../../model/crank.js';
import { syscallCall } from '../../model/syscall-call.js';
import { KIND_OBJECT, KIND_PROMISE, KIND_WORDS, type KrefId } from '../../model/kref-ids.js';
import type { KrefModel } from '../../model/krefs.js';
import type { ClistEntry, DeliverEntry } from '../../scan/entry-types.js';
import { messageMethargs } from '../../scan/message.js';
import type { RenderContext } from '../../render/context.js';
import { crankHeader, entryLines } from '../../render/crank-text.js';
import type { KernelLines } from '../../render/kernel-lines.js';
import { syscallLines } from '../../render/syscall-lines.js';
import { describeOrigin, type AutoNames } from './auto-names.js';

/** The crank lines that mention the kref, under the crank's header. */
interface CrankMention {
  header: string;
  lines: string[];
}

function slotsOf(data: unknown): unknown[] {
  const slots = (data as { slots?: unknown } | null | undefined)?.slots;
  return Array.isArray(slots) ? slots : [];
}

function messageRoles(kref: string, target: unknown, msg: unknown, roles: string[]): void {
  const m = (msg ?? {}) as { result?: unknown };
  if (target === kref) roles.push('target');
  // Today's {methargs, result} or 2021's {method, args, result} (scan/message.ts).
  if (slotsOf(messageMethargs(msg)).includes(kref)) roles.push('argument');
  if (m.result === kref) roles.push('result');
}

/** How a crank item mentions `kref`: none, or its roles (`target`, `argument`, `resolved`, ...). */
export function rolesIn(item: CrankItem, kref: string): string[] {
  const roles: string[] = [];
  if (item.kind === 'syscall') {
    const ksc = item.call.ksc;
    if (!Array.isArray(ksc)) return roles;
    const call = syscallCall(ksc, true);
    switch (call.name) {
      case 'send':
        messageRoles(kref, call.target, { methargs: call.methargs, result: call.result }, roles);
        break;
      case 'resolve':
        for (const r of call.resolutions ?? []) {
          if (r.target === kref) roles.push('resolved');
          if (slotsOf(r.data).includes(kref)) roles.push('in resolution');
        }
        break;
      case 'subscribe':
        if (call.target === kref) roles.push('subscribed');
        break;
      case 'invoke':
      case 'callNow': {
        if (call.target === kref) roles.push('invoked');
        if (slotsOf(call.args).includes(kref)) roles.push('argument');
        const ksr = item.result?.ksr;
        if (Array.isArray(ksr) && slotsOf(ksr[1]).includes(kref)) roles.push('returned');
        break;
      }
      case 'dropImports':
      case 'retireImports':
      case 'retireExports':
      case 'abandonExports':
        if (call.refs?.includes(kref)) roles.push(call.name);
        break;
      case 'exit':
        if (slotsOf(call.info).includes(kref)) roles.push('exit value');
        break;
      default:
        break;
    }
    return roles;
  }
  const entry = item.entry;
  if (entry.type === 'clist') {
    if ((entry as ClistEntry).kobj === kref) roles.push('clist');
  } else if (entry.type === 'deliver') {
    const kd = (entry as DeliverEntry).kd;
    if (!Array.isArray(kd)) return roles;
    switch (kd[0]) {
      case 'message':
        messageRoles(kref, kd[1], kd[2], roles);
        break;
      case 'notify':
        for (const r of Array.isArray(kd[1]) ? (kd[1] as unknown[]) : []) {
          if (!Array.isArray(r)) continue;
          if (r[0] === kref) roles.push('notified');
          if (slotsOf((r[1] as { data?: unknown } | undefined)?.data).includes(kref)) roles.push('in resolution');
        }
        break;
      case 'dropExports':
      case 'retireExports':
      case 'retireImports':
        if (Array.isArray(kd[1]) && kd[1].includes(kref)) roles.push(kd[0]);
        break;
      case 'startVat':
      case 'stopVat':
        if (slotsOf(kd[1]).includes(kref)) roles.push(`${kd[0]} argument`);
        break;
      default:
        break;
    }
  }
  return roles;
}

export class KrefHistory {
  private readonly mentions: CrankMention[] = [];
  /** How the kref prints in rendered lines (`@kp40` or `<name>`), to pick its lines out of a multi-line item. */
  private readonly shown: RegExp;

  constructor(
    readonly kref: string,
    private readonly ctx: RenderContext,
    private readonly kernel: KernelLines,
  ) {
    const text = ctx.kref(kref);
    const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    this.shown = new RegExp(text.startsWith('@') ? `${escaped}(?!\\d)` : escaped);
  }

  /** Number of cranks that mention the kref. */
  get cranks(): number {
    return this.mentions.length;
  }

  crank(crank: Crank): void {
    if (crank.crankType === 'routing') return;
    let mention: CrankMention | undefined;
    for (const item of crank.items) {
      const roles = rolesIn(item, this.kref);
      if (!roles.length) continue;
      this.ctx.currentVat = crank.vatID;
      const rendered = item.kind === 'syscall' ? syscallLines(this.ctx, item) : entryLines(this.ctx, this.kernel, item.entry);
      // A resolve or notify of several promises prints one line each: keep those that show the kref.
      const showing = rendered.length > 1 ? rendered.filter((line) => this.shown.test(line)) : rendered;
      const lines = showing.length ? showing : rendered;
      if (!lines.length) continue; // a line the options leave out (--nonoise)
      mention ??= { header: crankHeader(this.ctx, crank), lines: [] };
      for (const line of lines) mention.lines.push(`[${roles.join(', ')}] ${line}`);
    }
    if (mention) this.mentions.push(mention);
  }

  /** The whole text: summary, then the mentions; `scope`: the selection the mentions were kept by, in words (`cranks 100-200`). */
  lines(id: KrefId, model: KrefModel, names: AutoNames, scope?: string): string[] {
    const f = model.facts(id);
    const out: string[] = [];
    const annotated = this.ctx.annotations.kernelRefs.get(this.kref);
    const auto = names.name(id);
    const display = (ref: KrefId): string => names.shown(ref, this.ctx.annotations);
    let title = `${this.kref} (${KIND_WORDS[id & 3]})`;
    if (annotated !== undefined) title += `: ${annotated}${auto !== undefined && auto !== annotated ? ` (automatic name: ${auto})` : ''}`;
    else if (auto !== undefined) title += `: ${auto}`;
    out.push(title);
    if (f) {
      // `v1 <no name>` for a vat nothing names, as crank headers say (not `v1 v1`).
      const vat = (vatID: string | undefined): string => (vatID === undefined ? 'the kernel' : `${vatID} ${names.vats.label(vatID)}`);
      const by = vat(f.vat);
      out.push(`created: crank ${f.crank} by ${by}: ${describeOrigin(f, names, display)}`);
      if (f.kind === KIND_PROMISE) {
        const how = f.rejected ? 'rejected' : 'fulfilled';
        if (f.resolvedCrank >= 0) out.push(`resolved: crank ${f.resolvedCrank} by ${vat(f.resolver)} (${how})`);
        else out.push(f.settled ? `resolved: by the kernel (${how})` : 'resolved: not in this slog');
      }
      if (f.kind === KIND_OBJECT) {
        if (f.owner !== undefined) out.push(`exported by: ${vat(f.owner)}${f.root ? ' (its root object)' : ''}`);
        out.push(`dropped: ${f.droppedCrank >= 0 ? `crank ${f.droppedCrank}` : 'not in this slog'}`);
        out.push(`retired: ${f.retiredCrank >= 0 ? `crank ${f.retiredCrank}` : 'not in this slog'}`);
      }
    }
    out.push(`mentioned in ${this.mentions.length} crank${this.mentions.length === 1 ? '' : 's'}${scope === undefined ? '' : ` of ${scope}`}`);
    for (const m of this.mentions) out.push('', m.header, ...m.lines);
    return out;
  }
}
