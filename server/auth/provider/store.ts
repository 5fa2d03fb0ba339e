import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Db } from '../../db/connect.ts';

/**
 * oidc-provider's storage in the database instead of process memory, so a sign-in started on
 * one server process can finish on another, and a restart loses nothing.
 */
export function databaseAdapter(db: Db) {
  return class DatabaseAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const row = {
        model: this.model,
        id,
        payload: JSON.stringify(payload),
        grant_id: payload.grantId ?? null,
        uid: payload.uid ?? null,
        user_code: payload.userCode ?? null,
        expires_at: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
      };
      await db
        .insertInto('provider_store')
        .values(row)
        .onConflict((oc) => oc.columns(['model', 'id']).doUpdateSet(row))
        .execute();
    }

    private async findBy(column: 'id' | 'uid' | 'user_code', value: string): Promise<AdapterPayload | undefined> {
      const row = await db
        .selectFrom('provider_store')
        .select(['payload', 'consumed_at', 'expires_at'])
        .where('model', '=', this.model)
        .where(column, '=', value)
        .executeTakeFirst();
      if (!row || (row.expires_at && row.expires_at.getTime() < Date.now())) return undefined;
      const payload = row.payload as AdapterPayload;
      return row.consumed_at ? { ...payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) } : payload;
    }

    find(id: string) {
      return this.findBy('id', id);
    }
    findByUid(uid: string) {
      return this.findBy('uid', uid);
    }
    findByUserCode(userCode: string) {
      return this.findBy('user_code', userCode);
    }

    async consume(id: string): Promise<void> {
      await db
        .updateTable('provider_store')
        .set({ consumed_at: new Date() })
        .where('model', '=', this.model)
        .where('id', '=', id)
        .execute();
    }

    async destroy(id: string): Promise<void> {
      await db.deleteFrom('provider_store').where('model', '=', this.model).where('id', '=', id).execute();
    }

    /**
     * The provider calls this once per token model (access token, code, ...), so it removes
     * only this model's rows. Across all models it also deleted the Interaction that carries
     * the old grant's id: switching account under prompt=login logs the old session out
     * (revoking its grant) and then resumes that very interaction, which was gone
     * ("interaction session not found").
     */
    async revokeByGrantId(grantId: string): Promise<void> {
      await db
        .deleteFrom('provider_store')
        .where('model', '=', this.model)
        .where('grant_id', '=', grantId)
        .execute();
    }
  };
}
