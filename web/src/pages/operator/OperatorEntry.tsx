import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useUserInfo } from '../../api/queries.ts';

/** Home's way into the operator console, shown only to operators (mount it signed in only). */
export function OperatorEntry() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data } = useUserInfo();
  if (!data?.isOperator) return null;
  return (
    <Button block fill="outline" size="large" className="operator-entry" onClick={() => navigate('/operator')}>
      {t('operator.entry')}
    </Button>
  );
}
