/**
 * Created `earn_buy` before functions became code (issue 22): it is now defined in
 * server/earn/buyFunction.ts and replaced on every start by `migrateToLatest`, after the
 * migrations. Never released, so it could be emptied: a database that ran it keeps a function
 * of the same signature, which the next start replaces; a fresh one gets it from there.
 * Kept, empty, so that the names recorded in `kysely_migration` stay the same everywhere.
 */
export async function up(): Promise<void> {}
