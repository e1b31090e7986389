/**
 * The claim ids a store made itself, for a caller that passes none (a store used directly,
 * without createDeduplicator, which names every claim): remembered by key from the claim until
 * its commit or release, so that the SQLite and Redis stores fence those claims too.
 */
export class OwnClaims {
  readonly #ids = new Map<string, string>();

  /** The id to claim `key` with: the caller's, else a new one, kept once `claimed` says the claim took. */
  id(key: string, claimId: string | undefined): { id: string; claimed(): void } {
    const id = claimId ?? globalThis.crypto.randomUUID();
    return { id, claimed: () => void (claimId === undefined && this.#ids.set(key, id)) };
  }

  /** The id of the claim now held on `key` (the caller's, else this store's own), if any. */
  held(key: string, claimId: string | undefined): string | undefined {
    return claimId ?? this.#ids.get(key);
  }

  /** As `held`, the store's own id then forgotten (a commit or a release ends the claim); '' matches no claim. */
  take(key: string, claimId: string | undefined): string {
    if (claimId !== undefined) return claimId;
    const id = this.#ids.get(key) ?? '';
    this.#ids.delete(key);
    return id;
  }
}
