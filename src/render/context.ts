/**
 * What every line renderer needs: the options, the annotation names, the vat
 * names learned so far, and the vat whose crank is being printed (for vat-space
 * names).
 */
import type { Annotations } from '../model/annotations.js';
import type { VatNames } from '../model/vats.js';
import type { BigTextScope } from '../scan/big-string.js';
import type { Ref } from '../scan/entry-types.js';
import { micros } from './format.js';
import type { RenderOptions } from './options.js';
import type { ValueContext } from './values.js';

export class RenderContext {
  /** The vat of the crank being rendered (vat-space names are looked up in its table). */
  currentVat: string | undefined;
  readonly bigWidth: number;
  /** Kernel-space refs in kernel mode, vat-space refs with --vatspace. */
  readonly value: ValueContext;

  constructor(
    readonly options: RenderOptions,
    readonly annotations: Annotations,
    readonly vats: VatNames,
    /** The text render's scope, where big strings are sentinels in the lines (scan/big-string.ts); none elsewhere. */
    readonly bigText?: BigTextScope,
  ) {
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

  private replay: RenderContext | undefined;

  /** The context transcript replays are printed in: vat space (replays have no kernel-space forms). */
  replayContext(): RenderContext {
    if (this.options.vatspace) return this;
    this.replay ??= new RenderContext({ ...this.options, vatspace: true }, this.annotations, this.vats, this.bigText);
    return this.replay;
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
