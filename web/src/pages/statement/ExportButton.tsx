import Button from 'antd-mobile/es/components/button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, TOAST_MS } from '../../api/client.ts';
import { downloadStatementCsv } from '../../api/statement.ts';
import { showToast } from '../../lib/toast.ts';

/** Downloads the whole history as CSV (fetched with the session's token, then saved). */
export function ExportButton() {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const exportCsv = async () => {
    setBusy(true);
    try {
      await downloadStatementCsv();
      showToast({ content: t('statement.exported'), icon: 'success', duration: TOAST_MS });
    } catch (error) {
      // A refusal has been shown by the api client already.
      if (!(error instanceof ApiError)) showToast({ content: t('common.operationFailed'), icon: 'fail', duration: TOAST_MS });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button block color="primary" fill="outline" loading={busy} disabled={busy} onClick={() => void exportCsv()}>
      {t('statement.export')}
    </Button>
  );
}
