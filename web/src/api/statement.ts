import { useInfiniteQuery } from '@tanstack/react-query';
import { PATHS } from '../../../contract/paths.ts';
import type { MonthlyData } from '../../../contract/statement.ts';
import { apiDownload, apiGet } from './client.ts';

/** As the other lists page (the server's default too). */
const STATEMENT_PAGE_SIZE = 20;

/** Statement queries start with this key (a part of the wallet's: money moves refresh them). */
const statementKey = ['wallet', 'statement'] as const;

/** A month's statement (null: the server's current month), movements page by page. */
export const useMonthlyStatement = (month: string | null) =>
  useInfiniteQuery({
    queryKey: [...statementKey, month],
    queryFn: ({ pageParam, signal }) =>
      apiGet<MonthlyData>(
        PATHS.statementMonthly,
        { month, cursor: pageParam, limit: STATEMENT_PAGE_SIZE },
        { signal },
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    // The paged list reads each page's items.
    select: (data) => ({ ...data, pages: data.pages.map((page) => ({ ...page, items: page.movements })) }),
  });

/** Fetches the whole-history CSV with the session's token and hands it to the browser to save. */
export async function downloadStatementCsv(): Promise<void> {
  const { blob, filename } = await apiDownload(PATHS.statementCsv);
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename ?? 'aic-statement.csv';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
