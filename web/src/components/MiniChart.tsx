import { useId } from 'react';

/** One point of a chart: its x label and an exact value in 1e-8 units. */
export type ChartPoint = { label: string; value: bigint };

const WIDTH = 340;
const HEIGHT = 170;
const RIGHT = 8;
const TOP = 10;
const BOTTOM = 24;
const PLOT_H = HEIGHT - TOP - BOTTOM;
/** Room for the y labels: about 6 units per character of the longest one (10px text). */
const leftFor = (labels: string[]) => Math.min(90, Math.max(28, 10 + 6 * Math.max(...labels.map((l) => l.length))));

/** Where a value sits between 0 and max, as a share of the plot height (drawing only). */
const share = (value: bigint, max: bigint): number => (max > 0n ? Number((value * 10_000n) / max) / 10_000 : 0);
const round = (n: number) => Math.round(n * 10) / 10;

/**
 * A small inline SVG chart (bars or a line) with a y axis (0, half, max) and a few x labels.
 * Screen readers get the title and a written summary, which also shows under the chart.
 */
export function MiniChart({
  title,
  summary,
  points,
  variant,
  formatValue,
  xLabelEvery = 10,
}: {
  title: string;
  summary: string;
  points: readonly ChartPoint[];
  variant: 'bars' | 'line';
  formatValue: (value: bigint) => string;
  xLabelEvery?: number;
}) {
  const id = useId();
  let max = 0n;
  for (const p of points) if (p.value > max) max = p.value;
  // Nothing above zero: only the baseline is labelled.
  const ticks = (max > 0n ? [0n, max / 2n, max] : [0n]).map((value, i) => ({
    name: ['zero', 'half', 'max'][i] ?? 'zero',
    value,
    label: formatValue(value),
  }));
  const left = leftFor(ticks.map((tick) => tick.label));
  const step = (WIDTH - left - RIGHT) / Math.max(points.length, 1);
  const x = (i: number) => left + step * i + step / 2;
  const y = (value: bigint) => TOP + PLOT_H - share(value, max) * PLOT_H;
  const labelled = points.map((p, i) => ({ ...p, i })).filter(({ i }) => i % xLabelEvery === 0 || i === points.length - 1);

  return (
    <figure className="chart">
      <svg
        className="chart__svg"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-summary`}
      >
        <title id={`${id}-title`}>{title}</title>
        {ticks.map((tick) => (
          <g key={tick.name} className="chart__tick">
            <line x1={left} x2={WIDTH - RIGHT} y1={round(y(tick.value))} y2={round(y(tick.value))} />
            <text x={left - 6} y={round(y(tick.value)) + 4} textAnchor="end">
              {tick.label}
            </text>
          </g>
        ))}
        {variant === 'bars' ? (
          points.map((p, i) => (
            <rect
              key={p.label}
              className="chart__bar"
              x={round(x(i) - step * 0.35)}
              width={round(step * 0.7)}
              y={round(y(p.value))}
              height={round(TOP + PLOT_H - y(p.value))}
            />
          ))
        ) : (
          <polyline
            className="chart__line"
            points={points.map((p, i) => `${round(x(i))},${round(y(p.value))}`).join(' ')}
          />
        )}
        {labelled.map((p) => (
          <text key={p.label} className="chart__x" x={round(x(p.i))} y={HEIGHT - 6} textAnchor="middle">
            {p.label}
          </text>
        ))}
      </svg>
      <figcaption id={`${id}-summary`} className="chart__summary">
        {summary}
      </figcaption>
    </figure>
  );
}
