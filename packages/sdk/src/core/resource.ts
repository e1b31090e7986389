import type { HttpCore } from './http.js';

/** Base of every resource: holds the surface's core, so that methods only name paths and schemas. */
export abstract class Resource {
  protected readonly core: HttpCore;
  constructor(core: HttpCore) {
    this.core = core;
  }
}

/** Encodes an id or reference for use as one path segment. */
export const segment = (value: string) => encodeURIComponent(value);
