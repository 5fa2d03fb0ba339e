import type { ReactNode } from 'react';

/** One labelled figure of a dashboard card. */
export function Figure({ label, value, unit, tone }: { label: string; value: ReactNode; unit?: string; tone?: 'up' | 'down' }) {
  return (
    <div className="figure">
      <dt className="figure__label">{label}</dt>
      <dd className={`figure__value${tone ? ` figure__value--${tone}` : ''}`}>
        {value}
        {unit && <span className="figure__unit"> {unit}</span>}
      </dd>
    </div>
  );
}
