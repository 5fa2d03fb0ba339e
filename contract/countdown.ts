/**
 * The whole days a countdown of `seconds` shows ("30d 12:02:00" shows 30): the remaining days
 * of an order are this figure of its countdown, so the two never disagree.
 */
export const countdownDays = (seconds: number): number => Math.floor(seconds / 86_400);
