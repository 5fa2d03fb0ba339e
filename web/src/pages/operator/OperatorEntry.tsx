import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useUserInfo } from '../../api/queries.ts';
import { LightButton } from '../../components/LightButton.tsx';

/** Home's way into the operator console, shown only to operators (mount it signed in only). */
export function OperatorEntry() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data } = useUserInfo();
  if (!data?.isOperator) return null;
  return (
    <LightButton fill="outline" className="operator-entry" onClick={() => navigate('/operator')}>
      {t('operator.entry')}
    </LightButton>
  );
}
