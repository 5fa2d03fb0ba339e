import type { ActivityPhase } from '../../contract/activity.ts';
import type { RecruitmentConfig } from '../config.ts';
import { addDays, DAY_MS } from '../platform/clock.ts';

export type RecruitmentWindow = {
  /** The activity runs [activityStart, activityEnd), the assessment [activityEnd, assessmentEnd). */
  activityStart: Date;
  activityEnd: Date;
  assessmentEnd: Date;
};

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

/** The activity's moments from configuration; refuses a start that is not a UTC day. */
export function recruitmentWindow(config: RecruitmentConfig): RecruitmentWindow {
  const start = Date.parse(`${config.start}T00:00:00Z`);
  if (!DAY_RE.test(config.start) || Number.isNaN(start)) throw new Error('RECRUITMENT_START must be a day (YYYY-MM-DD)');
  const activityEnd = start + config.activityDays * DAY_MS;
  return {
    activityStart: new Date(start),
    activityEnd: new Date(activityEnd),
    assessmentEnd: new Date(activityEnd + config.assessmentDays * DAY_MS),
  };
}

export type PhaseAt = {
  phase: ActivityPhase;
  startsAt: Date | null;
  endsAt: Date | null;
  secondsLeft: number | null;
};

/** Where `now` falls: before the activity, in it, in the assessment, or after both. */
export function phaseAt(window: RecruitmentWindow, now: Date): PhaseAt {
  const t = now.getTime();
  const left = (end: Date) => Math.ceil((end.getTime() - t) / 1000);
  if (t < window.activityStart.getTime()) {
    return { phase: 'before', startsAt: null, endsAt: window.activityStart, secondsLeft: left(window.activityStart) };
  }
  if (t < window.activityEnd.getTime()) {
    return { phase: 'activity', startsAt: window.activityStart, endsAt: window.activityEnd, secondsLeft: left(window.activityEnd) };
  }
  if (t < window.assessmentEnd.getTime()) {
    return { phase: 'assessment', startsAt: window.activityEnd, endsAt: window.assessmentEnd, secondsLeft: left(window.assessmentEnd) };
  }
  return { phase: 'ended', startsAt: window.assessmentEnd, endsAt: null, secondsLeft: null };
}

/** A period as its first and last UTC day (inclusive) and its length in days. */
export function period(start: Date, days: number) {
  const firstDay = start.toISOString().slice(0, 10);
  return { firstDay, lastDay: addDays(firstDay, Math.max(days, 1) - 1), days };
}

/** The activity's window as the day's team roll-up counts the downline inside it (team/settle.ts). */
export function teamWindow(config: RecruitmentConfig): { from: Date; to: Date } {
  const window = recruitmentWindow(config);
  return { from: window.activityStart, to: window.activityEnd };
}
