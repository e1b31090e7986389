import type { HttpCore } from './http.js';

/** Base of every resource: holds the surface's core, so that methods only name paths and schemas. */
export abstract class Resource {
  protected readonly core: HttpCore;
  constructor(core: HttpCore) {
    this.core = core;
    // Each method of the subclass, on the instance, run under core.capture so that its promise has withResponse().
    for (let proto = new.target.prototype as object; proto !== Resource.prototype; proto = Object.getPrototypeOf(proto) as object) {
      for (const name of Object.getOwnPropertyNames(proto)) {
        const method = Object.getOwnPropertyDescriptor(proto, name)?.value as unknown;
        if (name === 'constructor' || typeof method !== 'function' || Object.hasOwn(this, name)) continue;
        Object.defineProperty(this, name, {
          value: (...args: unknown[]) => core.capture(() => (method as (...a: unknown[]) => unknown).apply(this, args)),
          configurable: true,
          writable: true,
        });
      }
    }
  }
}

/** Encodes an id or reference for use as one path segment. */
export const segment = (value: string) => encodeURIComponent(value);
