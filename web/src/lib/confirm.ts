import Dialog from 'antd-mobile/es/components/dialog';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';

/** "Please confirm" before an action (money moves, revocations); resolves true only on Confirm. */
export const confirmAction = (t: TFunction, content: ReactNode): Promise<boolean> =>
  Dialog.confirm({
    'aria-label': t('wallet.confirmTitle'),
    title: t('wallet.confirmTitle'),
    content,
    confirmText: t('common.confirm'),
    cancelText: t('common.cancel'),
  });
