import Button from 'antd-mobile/es/components/button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatAmount, formatEntered } from '../../lib/format.ts';
import type { FundBody } from '../../../../contract/operator.ts';
import { ASSETS, type Asset } from '../../../../contract/wallet.ts';
import { useFund } from '../../api/operator.ts';
import { useConfirmedAction } from '../../api/useConfirmedAction.ts';
import { ChoiceGroup } from '../../components/ChoiceGroup.tsx';
import { checkEntered } from '../../lib/amount.ts';
import { AmountField } from '../../components/AmountField.tsx';

type Account = FundBody['account'];
const ACCOUNTS: readonly Account[] = ['treasury', 'supercomputing_pool'];

/**
 * Asks to add the platform's own money (its account at the exchange) to the treasury or the
 * supercomputing pool, after a confirmation; another operator approves it (FundingQueue).
 */
export function FundForm() {
  const { t } = useTranslation();
  const [account, setAccount] = useState<Account>('treasury');
  const [asset, setAsset] = useState<Asset>('AIC');
  const [input, setInput] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<string | null>(null);
  const { start, sending } = useConfirmedAction(useFund());
  const accountName = (a: Account) => t(`operator.account.${a}`);

  const edit = (change: () => void) => {
    change();
    setError(null);
  };

  const submit = () =>
    start(() => {
      const check = checkEntered(input);
      if (!check.ok) {
        setError(t(check.message));
        return null;
      }
      const { amount } = check;
      return {
        question: t('operator.fund.confirm', { amount: formatEntered(amount), asset, account: accountName(account) }),
        body: { account, asset, amount },
        success: () => t('common.operationSuccess'),
        done: (answer) => {
          setInput('');
          setResult(t('operator.fund.requested', { account: accountName(account), amount: formatAmount(answer.amount), asset }));
        },
      };
    });

  return (
    <section className="card" aria-label={t('operator.fund.title')}>
      <h2 className="card__title">{t('operator.fund.title')}</h2>
      <p className="card__text">{t('operator.fund.hint')}</p>
      <p className="field__label">{t('operator.fund.account')}</p>
      <ChoiceGroup
        label={t('operator.fund.account')}
        options={ACCOUNTS.map((a) => ({ value: a, label: accountName(a) }))}
        value={account}
        onChange={(a) => edit(() => setAccount(a))}
      />
      <p className="field__label">{t('wallet.asset')}</p>
      <ChoiceGroup
        label={t('wallet.asset')}
        options={ASSETS.map((a) => ({ value: a, label: a }))}
        value={asset}
        onChange={(a) => edit(() => setAsset(a))}
      />
      <AmountField
        label={t('operator.fund.amount')}
        unit={asset}
        value={input}
        onChange={(value) => edit(() => setInput(value))}
        onSubmit={() => void submit()}
        error={error}
      />
      {result && (
        <p className="field__note" role="status">
          {result}
        </p>
      )}
      <Button className="form-submit" block size="large" color="primary" loading={sending} disabled={sending} onClick={() => void submit()}>
        {t('operator.fund.submit')}
      </Button>
    </section>
  );
}
