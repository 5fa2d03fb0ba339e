/**
 * The figures a benchmark reports: printed as a table by the benchmark itself and, when run by
 * bench/run.ts (BENCH_RESULTS names a file), appended to that file as JSON lines so the runner
 * can print one table of every benchmark at the end.
 */
import { appendFileSync } from 'node:fs';

export type Figure = {
  benchmark: string;
  figure: string;
  value: string;
  /** What we aim for; empty when the figure is only for comparing runs. */
  goal?: string;
  /** Whether the goal is met; undefined when there is no goal. */
  met?: boolean;
};

export const tableRow = (f: Figure) => ({
  benchmark: f.benchmark,
  figure: f.figure,
  value: f.value,
  goal: f.goal ?? '',
  'met?': f.met === undefined ? '' : f.met ? 'yes' : 'NO',
});

/** Hands the figures to the runner (nothing when run alone). */
export function record(figures: Figure[]): void {
  const file = process.env.BENCH_RESULTS;
  if (file) appendFileSync(file, figures.map((f) => `${JSON.stringify(f)}\n`).join(''));
}

/** Prints the figures and hands them to the runner. */
export function report(title: string, figures: Figure[]): void {
  console.log(`\n${title}`);
  console.table(figures.map(tableRow));
  record(figures);
}

/** Reads the figures the benchmarks appended to `file`. */
export function readFigures(text: string): Figure[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Figure);
}

export const int = (n: number) => Math.round(n).toLocaleString('en');
