import type { Locale } from '../../../shared/i18n/messages.js';

export type ConfigValue = Record<string, unknown>;

/**
 * A kind of per-lab configuration (spec 7.2 customConfig): which keys it owns, what a lab gets before
 * it saves anything, and the check a saved value must pass. The capability that reads a kind (the
 * handover slip) declares it; the store knows none of them.
 */
export interface ConfigKind {
  owns(key: string): boolean;
  /** The value in force before the lab saves one; undefined: the key exists only once saved. */
  defaults(key: string): ConfigValue | undefined;
  /** The value to store, or what is wrong with it in the caller's words. */
  check(value: unknown, locale: Locale): { value: ConfigValue } | { problem: string };
}

/** The kinds the capabilities declared, asked by key. */
export class ConfigKinds {
  private readonly kinds: ConfigKind[] = [];

  add(kind: ConfigKind): void {
    if (!this.kinds.includes(kind)) this.kinds.push(kind);
  }

  of(key: string): ConfigKind | undefined {
    return this.kinds.find((k) => k.owns(key));
  }
}

/** Keys: a letter, then letters, digits, '.', '_' or '-' (handoverSlip, handoverSlip.cold). */
export const CONFIG_KEY = /^[A-Za-z][A-Za-z0-9._-]{0,63}$/;
