/**
 * What each folder of server/ may import of the others: the one table behind each README's
 * "**Imports:**" line. `npm run depcruise` refuses any other import from the folder's non-test
 * files (rules `<folder>-imports-per-readme` in .dependency-cruiser.cjs), and
 * server/readmeImports.test.ts holds every README's line to this table, so neither can drift.
 * Root files (`server/config.ts`, `server/context.ts`, ...) and contract/ are not listed.
 */
module.exports = {
  activity: ['auth', 'db', 'http', 'platform', 'team'],
  auth: ['db', 'http', 'notify', 'platform'],
  dashboard: ['db', 'earn', 'http', 'ledger', 'platform'],
  db: [],
  earn: ['auth', 'db', 'http', 'income', 'ledger', 'notify', 'platform', 'team'],
  exchange: ['db'],
  http: ['db', 'ledger'],
  income: ['db', 'ledger', 'platform'],
  ledger: ['db'],
  notify: ['db', 'http', 'platform'],
  operator: ['auth', 'db', 'earn', 'http', 'ledger', 'notify', 'platform', 'proof', 'settlement', 'team'],
  platform: ['db', 'ledger'],
  proof: ['auth', 'db', 'http', 'income', 'platform'],
  reliability: ['db', 'exchange', 'income', 'ledger', 'test'],
  settlement: ['activity', 'db', 'earn', 'http', 'income', 'ledger', 'notify', 'platform', 'proof', 'team'],
  statement: ['auth', 'db', 'http', 'ledger', 'platform'],
  team: ['auth', 'db', 'http', 'income', 'ledger', 'notify', 'platform'],
  test: ['db', 'ledger', 'platform'],
  wallet: ['auth', 'db', 'earn', 'http', 'ledger', 'notify', 'operator', 'platform'],
};
