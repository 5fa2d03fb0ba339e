import type { UseQueryResult } from '@tanstack/react-query';
import Button from 'antd-mobile/es/components/button';
import Skeleton from 'antd-mobile/es/components/skeleton';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A section of the console: its title, then the query's loading, failure (with retry) or data. */
export function QueryCard<T>({
  title,
  query,
  className,
  action,
  children,
}: {
  title: string;
  /** A query, or a paged (infinite) one: only its data, pending state and refetch are read. */
  query: Pick<UseQueryResult<T>, 'data' | 'isPending'> & { refetch: () => unknown };
  className?: string;
  action?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation();
  const { data, isPending, refetch } = query;
  let body: ReactNode;
  if (data !== undefined) body = children(data);
  else if (isPending) body = <Skeleton.Paragraph lineCount={4} animated />;
  else {
    body = (
      <div className="records__state">
        <p>{t('operator.loadFailed')}</p>
        <Button size="small" onClick={() => void refetch()}>
          {t('common.retry')}
        </Button>
      </div>
    );
  }
  return (
    <section className={`card ${className ?? ''}`.trim()} aria-label={title}>
      <header className="op-card__header">
        <h2 className="card__title">{title}</h2>
        {action}
      </header>
      {body}
    </section>
  );
}
