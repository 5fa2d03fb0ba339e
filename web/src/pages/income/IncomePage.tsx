import Tabs from 'antd-mobile/es/components/tabs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { IncomeKind } from '../../../../contract/income.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { IncomeLines } from '../thirtydays/IncomeLines.tsx';

const KINDS: IncomeKind[] = ['static', 'current', 'fixed', 'rebate'];

/** Every income line of the holder by kind, each with how it was computed. */
export function IncomePage() {
  const { t } = useTranslation();
  const [kind, setKind] = useState<IncomeKind>('static');
  return (
    <main className="page">
      <PageHeader title={t('title.income')} />
      <section className="card">
        <p className="card__text">{t('income.intro')}</p>
      </section>
      <Tabs activeKey={kind} onChange={(key) => setKind(key as IncomeKind)}>
        {KINDS.map((k) => (
          <Tabs.Tab key={k} title={t(`income.kind.${k}`)} />
        ))}
      </Tabs>
      <section className="card records" aria-label={t(`income.kind.${kind}`)}>
        <IncomeLines key={kind} kind={kind} label={t(`income.kind.${kind}`)} />
      </section>
    </main>
  );
}
