/**
 * A Map of records by id that also finds a record by a key fixed when the record is made (a
 * key's hash, a session's reference), in one look-up instead of a scan of every record.
 * `set`, `delete` and `clear` keep the index, so whoever writes the Map keeps it right without
 * knowing of it; the key must be unique and never change afterwards. The index is private:
 * the Map iterates, serializes and compares as any other.
 */
export class IndexedMap<V> extends Map<string, V> {
  readonly #by = new Map<string, V>();

  constructor(readonly keyOf: (record: V) => string) {
    super();
  }

  /** The record whose key is `value`, if any. */
  find(value: string): V | undefined {
    return this.#by.get(value);
  }

  override set(id: string, record: V): this {
    const old = super.get(id);
    if (old !== undefined) this.#unindex(old);
    this.#by.set(this.keyOf(record), record);
    return super.set(id, record);
  }

  override delete(id: string): boolean {
    const old = super.get(id);
    if (old !== undefined) this.#unindex(old);
    return super.delete(id);
  }

  override clear(): void {
    this.#by.clear();
    super.clear();
  }

  #unindex(record: V): void {
    const value = this.keyOf(record);
    if (this.#by.get(value) === record) this.#by.delete(value);
  }
}

/**
 * The record of `records` whose `keyOf` is `value`: through the index, or by a scan when the
 * Map is a plain one (a `structuredClone` of the store, as tests take, keeps no class).
 */
export function findBy<V>(records: Map<string, V>, keyOf: (record: V) => string, value: string): V | undefined {
  if (records instanceof IndexedMap && records.keyOf === keyOf) return (records as IndexedMap<V>).find(value);
  for (const record of records.values()) if (keyOf(record) === value) return record;
  return undefined;
}

/** What API keys of every kind are found by: the SHA-256 of their text, which is all the store keeps. */
export const keyHash = (key: { key_hash: string }) => key.key_hash;
