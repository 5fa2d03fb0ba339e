import Button from 'antd-mobile/es/components/button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { explainIncome, type IncomeInputs, isIncomeKind, MissingInput } from '../../../../contract/income.ts';
import { Sheet } from '../../components/Sheet.tsx';
import { formatDay, formatFigure, formatRate } from '../../lib/format.ts';

/** The inputs that are rates (decimal fractions), shown as percentages. */
const RATE_VALUES = ['rate', 'maxRate'];
/** The inputs that are exact figures; the others (cycle, generation, level, the rate's day) are labels. */
const FIGURE_VALUES = ['principal', 'holding', 'output', 'power', 'totalPower', 'coefficient', 'source'];

/** The formula's values in the reader's format, exact to the 8 decimals the verifier uses. */
function shownValues(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values).map(([name, value]) => [
      name,
      RATE_VALUES.includes(name) ? formatRate(value) : FIGURE_VALUES.includes(name) ? formatFigure(value) : value,
    ]),
  );
}

/** The expression ("1234.5 × 0.003 = 3.7035") with each number in the reader's format, its rates as percentages. */
function shownExpression(expression: string, values: Record<string, string>): string {
  const rates = new Set(RATE_VALUES.map((name) => values[name]).filter(Boolean));
  return expression.replace(/\d+(?:\.\d+)?/g, (number) => (rates.has(number) ? formatRate(number) : formatFigure(number)));
}

/**
 * "How was this computed": the line's formula with its own numbers, from the inputs stored
 * with it (the same formula the operators' verifier checks every settled day against).
 */
export function HowComputed({ kind, inputs, amount, day }: { kind: string; inputs: IncomeInputs; amount: string; day: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  if (!isIncomeKind(kind)) return null;
  let explanation: ReturnType<typeof explainIncome> | null = null;
  try {
    explanation = explainIncome(kind, inputs, amount);
  } catch (error) {
    if (!(error instanceof MissingInput)) throw error;
  }
  if (!explanation) return null;
  const values = explanation.values;
  return (
    <>
      <Button size="mini" fill="none" className="how-computed__open" onClick={() => setOpen(true)}>
        {t('income.how')}
      </Button>
      <Sheet visible={open} onClose={() => setOpen(false)} bodyClassName="how-computed">
        <section role="dialog" aria-label={t('income.how')}>
          <h2 className="card__title">{t('income.how')}</h2>
          <p className="card__text">{t(explanation.key, { ...shownValues(values), rateFrom: values.rateFrom ? formatDay(values.rateFrom) : t('rates.default') })}</p>
          <p className="how-computed__expression" data-testid="income-expression">
            {shownExpression(explanation.expression, values)} AIC
          </p>
          <p className="card__text">{t('income.truncated', { day: formatDay(day) })}</p>
          <Button block color="primary" onClick={() => setOpen(false)}>
            {t('common.close')}
          </Button>
        </section>
      </Sheet>
    </>
  );
}
