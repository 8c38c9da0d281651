import { randomBytes } from 'node:crypto';
import type { AuthService } from '../auth';
import type { Clock } from '../platform/clock';
import { sha256Hex } from '../platform/crypto';
import { badRequest } from '../platform/http/errors';

/** How long a handover code may wait for the window to load it. */
const CODE_TTL_MS = 60_000;

/**
 * The desktop owner's sign-in without a form: the shell (in the same process) asks for a
 * one-time code, the window loads `/auths/desktop-handover?code=…`, and that request gets the
 * owner's session cookie. Codes live in memory only (hashed), expire after a minute and work
 * once; nothing reaches them from the network but the loopback window.
 */
export function createOwnerHandover(deps: { auth: AuthService; clock: Clock; ttlMs?: number }) {
  const ttl = deps.ttlMs ?? CODE_TTL_MS;
  const codes = new Map<string, { userId: string; expiresAt: number }>();

  const prune = () => {
    const now = deps.clock.nowMs();
    for (const [hash, entry] of codes) if (entry.expiresAt <= now) codes.delete(hash);
  };

  return {
    /**
     * Creates the owner (primary admin, no password) when the workspace has no account yet and
     * returns a one-time code that signs the window in as the owner; undefined when the
     * workspace has accounts but no primary admin (then the window shows the sign-in form).
     */
    async issue(ownerName = 'Owner'): Promise<string | undefined> {
      const owner = await deps.auth.ensureOwner(ownerName);
      if (!owner) return undefined;
      prune();
      const code = randomBytes(32).toString('base64url');
      codes.set(sha256Hex(code), { userId: owner.id, expiresAt: deps.clock.nowMs() + ttl });
      return code;
    },

    /** Trades a code for the owner's session; a used, expired or unknown code is a 400. */
    async redeem(code: string) {
      prune();
      const hash = sha256Hex(code);
      const entry = codes.get(hash);
      codes.delete(hash);
      if (!entry) throw badRequest('This sign-in link has expired or was already used; restart Parley', 'HANDOVER_INVALID');
      const owner = await deps.auth.ensureOwner('Owner');
      if (!owner || owner.id !== entry.userId) throw badRequest('This sign-in link is no longer valid', 'HANDOVER_INVALID');
      return deps.auth.sessionFor(owner);
    },
  };
}
export type OwnerHandover = ReturnType<typeof createOwnerHandover>;
