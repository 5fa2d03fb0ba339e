import Button from 'antd-mobile/es/components/button';
import Toast from 'antd-mobile/es/components/toast';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatAmount, formatEntered } from '../../lib/format.ts';
import { formatUnits, parseAmount } from '../../../../contract/money.ts';
import type { FundBody } from '../../../../contract/operator.ts';
import { ASSETS, type Asset } from '../../../../contract/wallet.ts';
import { TOAST_MS } from '../../api/client.ts';
import { useFund } from '../../api/operator.ts';
import { ChoiceGroup } from '../../components/ChoiceGroup.tsx';
import { confirmAction } from '../../lib/confirm.ts';
import { AmountField } from '../../components/AmountField.tsx';

type Account = FundBody['account'];
const ACCOUNTS: readonly Account[] = ['treasury', 'supercomputing_pool'];
const PARSE_MESSAGES = {
  empty: 'err.amountRequired',
  format: 'err.amountInvalid',
  negative: 'err.amountInvalid',
  too_large: 'err.amountInvalid',
  decimals: 'err.amountDecimals',
} as const;

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
  const busy = useRef(false);
  const { send, sending } = useFund();
  const accountName = (a: Account) => t(`operator.account.${a}`);

  const edit = (change: () => void) => {
    change();
    setError(null);
  };

  const submit = async () => {
    if (busy.current) return;
    const parsed = parseAmount(input);
    if (!parsed.ok || parsed.value <= 0n) {
      setError(t(parsed.ok ? 'err.amountInvalid' : PARSE_MESSAGES[parsed.reason]));
      return;
    }
    const amount = formatUnits(parsed.value);
    busy.current = true;
    try {
      const content = t('operator.fund.confirm', { amount: formatEntered(amount), asset, account: accountName(account) });
      if (!(await confirmAction(t, content))) return;
      const answer = await send({ account, asset, amount });
      if (!answer) return;
      Toast.show({ content: t('common.operationSuccess'), icon: 'success', duration: TOAST_MS });
      setInput('');
      setResult(t('operator.fund.requested', { account: accountName(account), amount: formatAmount(answer.amount), asset }));
    } finally {
      busy.current = false;
    }
  };

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
