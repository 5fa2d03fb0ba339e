import { parseAmount, parseRate } from './money.ts';

/**
 * The team rules: what makes an effective holder, the levels, the rebate rates by generation,
 * the unlock tiers and the lock-up. They are versioned parameters (`team.*`), each kept as one
 * text: the environment seeds the first version, an operator schedules later ones with notice.
 */
export type TeamRules = {
  /** Own active AIC that makes an effective user. */
  effectiveMinimum: string;
  /** Team quantity (active AIC of the whole downline) for V1..V5. */
  levelThresholds: string[];
  /** Rebate rate by generation, of the downline's daily static earnings. */
  rebateRates: string[];
  /** Network income unlock: [own active AIC, share unlocked], highest first. */
  unlockTiers: [string, string][];
  lockupDays: number;
};

export const TEAM_RULE_NAMES = {
  rebateRates: 'team.rebate_rates',
  levelThresholds: 'team.level_thresholds',
  effectiveMinimum: 'team.effective_minimum',
  unlockTiers: 'team.unlock_tiers',
  lockupDays: 'team.lockup_days',
} as const satisfies Record<keyof TeamRules, string>;

export type TeamRuleName = (typeof TEAM_RULE_NAMES)[keyof TeamRules];

/** Which rule a parameter name is, if it is one. */
export const teamRuleKey = (name: string): keyof TeamRules | undefined =>
  (Object.keys(TEAM_RULE_NAMES) as (keyof TeamRules)[]).find((key) => TEAM_RULE_NAMES[key] === name);
export type TeamRuleTexts = Record<keyof TeamRules, string>;

const list = (text: string) =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

const isAmount = (text: string) => parseAmount(text).ok;

function isShare(text: string): boolean {
  try {
    const { numerator, denominator } = parseRate(text);
    return numerator <= denominator;
  } catch {
    return false;
  }
}

const units = (text: string) => {
  const parsed = parseAmount(text);
  return parsed.ok ? parsed.value : -1n;
};

/** Why a rule's text cannot be used, or null when it can. */
export function teamRuleProblem(key: keyof TeamRules, text: string): string | null {
  const items = list(text);
  switch (key) {
    case 'rebateRates':
      if (items.length < 1 || items.length > 10) return 'one to ten rates, by generation';
      return items.every(isShare) ? null : 'each rate is a decimal between 0 and 1';
    case 'levelThresholds':
      if (items.length < 1 || items.length > 10 || !items.every(isAmount)) return 'one to ten amounts, V1 first';
      return items.every((t, i) => i === 0 || units(t) > units(items[i - 1] as string)) ? null : 'thresholds rise with the level';
    case 'effectiveMinimum':
      return isAmount(text) ? null : 'an amount';
    case 'unlockTiers':
      return items.length > 0 && items.every((tier) => {
        const [holding = '', share = '', extra] = tier.split(':');
        return extra === undefined && isAmount(holding) && isShare(share);
      })
        ? null
        : 'tiers as holding:share, e.g. 10000:0.5,5000:0.3';
    case 'lockupDays':
      return /^\d{1,4}$/.test(text.trim()) ? null : 'whole days, 0 to 9999';
  }
}

/** The rules from their texts; throws on a text `teamRuleProblem` refuses. */
export function parseTeamRules(texts: TeamRuleTexts): TeamRules {
  for (const key of Object.keys(TEAM_RULE_NAMES) as (keyof TeamRules)[]) {
    const problem = teamRuleProblem(key, texts[key]);
    if (problem) throw new Error(`${TEAM_RULE_NAMES[key]} "${texts[key]}": ${problem}`);
  }
  return {
    effectiveMinimum: texts.effectiveMinimum.trim(),
    levelThresholds: list(texts.levelThresholds),
    rebateRates: list(texts.rebateRates),
    unlockTiers: list(texts.unlockTiers).map((tier) => {
      const [holding = '0', share = '0'] = tier.split(':');
      return [holding.trim(), share.trim()];
    }),
    lockupDays: Number.parseInt(texts.lockupDays, 10),
  };
}

/** The texts the rules are stored as (the inverse of `parseTeamRules`). */
export function teamRuleTexts(rules: TeamRules): TeamRuleTexts {
  return {
    effectiveMinimum: rules.effectiveMinimum,
    levelThresholds: rules.levelThresholds.join(','),
    rebateRates: rules.rebateRates.join(','),
    unlockTiers: rules.unlockTiers.map(([holding, share]) => `${holding}:${share}`).join(','),
    lockupDays: String(rules.lockupDays),
  };
}
