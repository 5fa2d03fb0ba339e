// moveWithinUsers is the ledger's (server/ledger/batch.ts), so that team reaches it without
// importing settlement (issue 22). This re-export keeps settle.ts's import; point that at
// ../ledger/batch.ts and delete this file.
export { moveWithinUsers } from '../ledger/batch.ts';
