/**
 * Created `earn_buy_batch` before functions became code (issue 22): it is now defined in
 * server/earn/buyFunction.ts and replaced on every start by `migrateToLatest`, like `earn_buy`
 * (see 0014). Kept, empty, so that the names recorded in `kysely_migration` stay the same.
 */
export async function up(): Promise<void> {}
