import Button from 'antd-mobile/es/components/button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { explainIncome, type IncomeInputs, isIncomeKind, MissingInput } from '../../../../contract/income.ts';
import { Sheet } from '../../components/Sheet.tsx';

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
          <p className="card__text">{t(explanation.key, { ...values, rateFrom: values.rateFrom || t('rates.default') })}</p>
          <p className="how-computed__expression" data-testid="income-expression">
            {explanation.expression} AIC
          </p>
          <p className="card__text">{t('income.truncated', { day })}</p>
          <Button block color="primary" onClick={() => setOpen(false)}>
            {t('common.confirm')}
          </Button>
        </section>
      </Sheet>
    </>
  );
}
