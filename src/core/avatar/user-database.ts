// `?user=` names looked up in the hotel's own database (the catalogue's `user_look`), for hotels without a
// public user API. The lookup around it (src/core/avatar/user-lookup.ts) keeps its caches, its Redis
// sharing and its deadline; this only turns rows and database errors into its outcomes.
import { type HotelDatabase, isDatabaseError } from '../../database/index.js';
import { MAX_FIGURE_BYTES } from './params.js';
import { type UserSource, type UserSourceOutcome } from './user-lookup.js';

export function databaseUserSource(db: HotelDatabase): UserSource {
  return {
    async find(name: string): Promise<UserSourceOutcome> {
      try {
        const [row] = await db.run('user_look', { name });
        if (!row) return { ok: false, reason: 'unknown', detail: `no user named ${JSON.stringify(name)} (or banned)` };
        const look = row.look;
        if (typeof look !== 'string' || look === '' || Buffer.byteLength(look) > MAX_FIGURE_BYTES)
          return { ok: false, reason: 'bad-response', detail: 'the database has no usable look for this user' };
        return { ok: true, figure: look };
      } catch (e) {
        if (!isDatabaseError(e)) throw e;
        return {
          ok: false,
          reason: e.kind === 'timeout' ? 'timeout' : e.kind === 'query' ? 'bad-response' : 'unreachable',
          detail: `database: ${e.message}`,
        };
      }
    },
  };
}
