/**
 * What every line renderer needs: the options, the annotation names, the vat
 * names learned so far, and the vat whose crank is being printed (for vat-space
 * names). A crank's lines are rendered in the context of its vat (`inVat`),
 * handed to the functions that print them, as pino-pretty hands each of its
 * printers `{ log, context }`: no context changes under its caller.
 */
import type { Annotations } from '../model/annotations.js';
import type { VatNames } from '../model/vats.js';
import type { BigTextScope } from '../scan/big-string.js';
import type { Ref } from '../scan/entry-types.js';
import { micros } from './format.js';
import type { RenderOptions } from './options.js';
import type { ValueContext } from './values.js';

/** What the contexts of one render share: each vat's context (inVat), and the context of replays. */
interface Family {
  byVat: Map<string | undefined, RenderContext>;
  replay: RenderContext | undefined;
}

export class RenderContext {
  /** The vat of the crank being rendered (vat-space names are looked up in its table). */
  currentVat: string | undefined;
  readonly bigWidth: number;
  /** Kernel-space refs in kernel mode, vat-space refs with --vatspace. */
  readonly value: ValueContext;
  private family: Family;

  constructor(
    readonly options: RenderOptions,
    readonly annotations: Annotations,
    readonly vats: VatNames,
    /** The text render's scope, where big strings are sentinels in the lines (scan/big-string.ts); none elsewhere. */
    readonly bigText?: BigTextScope,
    currentVat?: string,
  ) {
    this.currentVat = currentVat;
    this.family = { byVat: new Map([[currentVat, this]]), replay: undefined };
    this.bigWidth = annotations.bigWidth ?? options.bigWidth;
    this.value = {
      bigWidth: this.bigWidth,
      pref: options.vatspace ? (ref) => this.vref(ref) : (ref) => this.kref(ref),
      bigText,
    };
  }

  get kernelSpace(): boolean {
    return !this.options.vatspace;
  }

  /**
   * This context for a crank or entry of `vatID`: the same options and
   * names, vat-space refs named from that vat's table. Made once per vat.
   */
  inVat(vatID: string | undefined): RenderContext {
    if (vatID === this.currentVat) return this;
    let ctx = this.family.byVat.get(vatID);
    if (ctx === undefined) {
      ctx = new RenderContext(this.options, this.annotations, this.vats, this.bigText, vatID);
      ctx.family = this.family;
      this.family.byVat.set(vatID, ctx);
    }
    return ctx;
  }

  /** The context transcript replays are printed in: vat space (replays have no kernel-space forms); its inVat for each replay's vat. */
  replayContext(): RenderContext {
    if (this.options.vatspace) return this;
    this.family.replay ??= new RenderContext({ ...this.options, vatspace: true }, this.annotations, this.vats, this.bigText);
    return this.family.replay;
  }

  /** A kernel ref: `<name>` from kernelRefs, else `@ko12`. */
  kref(ref: Ref | undefined): string {
    const name = ref === undefined ? undefined : this.annotations.kernelRefs.get(ref);
    return name === undefined ? `@${ref}` : `<${name}>`;
  }

  /** A vat ref, named from vatRefs of `vatID` (default: the current crank's vat). */
  vref(ref: Ref | undefined, vatID: string | undefined = this.currentVat): string {
    const name = vatID === undefined || ref === undefined ? undefined : this.annotations.vatRefs.get(vatID)?.get(ref);
    return name === undefined ? `@${ref}` : `<${name}>`;
  }

  /** A ref in the space being rendered. */
  ref(ref: unknown): string {
    return this.value.pref(String(ref));
  }

  /**
   * A message's result: `@kp46`; a message without one (`null`, as a kernel
   * writes a send-only message, or the key left out) prints `@null`.
   */
  result(ref: unknown): string {
    return this.ref(ref ?? null);
  }

  /** A duration as ` 902µs` (with its leading space), or nothing with --no-times. */
  took(seconds: number): string {
    return this.options.noTimes ? '' : ` ${micros(seconds)}`;
  }

  /** `terse` normally, `full` with --usesloggertags. */
  tag(terse: string, full: string): string {
    return this.options.usesloggertags ? full : terse;
  }
}
