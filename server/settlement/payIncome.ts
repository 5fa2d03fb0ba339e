// payIncome lives in server/income, where team's rebates reach it without importing settlement
// (issue 22). This re-export keeps settle.ts's import; point that at ../income/payIncome.ts and
// delete this file (depcruise's folder pass then stops leaving out team/settle.ts).
export { payIncome, Shortfall } from '../income/payIncome.ts';
