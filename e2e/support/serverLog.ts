type Entry = {
  level?: number;
  reqId?: string;
  msg?: string;
  code?: number;
  detail?: unknown;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
};

/**
 * What a journey's server refused or complained of, a line each, from its JSON log (pino, at
 * LOG_LEVEL info): each refusal with its code and the call it answered, any other answer of 400
 * or more (a missing route), each warning or error, and any line that is not JSON (a stack).
 */
export function troubleIn(log: string): string[] {
  const calls = new Map<string, string>();
  const found: string[] = [];
  const refused = new Set<string | undefined>();
  for (const text of log.split('\n')) {
    if (!text.trim()) continue;
    let entry: Entry;
    try {
      entry = JSON.parse(text) as Entry;
    } catch {
      found.push(text);
      continue;
    }
    const call = (entry.reqId && calls.get(entry.reqId)) || 'a call';
    if (entry.reqId && entry.req) calls.set(entry.reqId, `${entry.req.method} ${entry.req.url}`);
    else if (entry.msg === 'refused') {
      refused.add(entry.reqId);
      found.push(`refused ${call} with code ${entry.code}${entry.detail ? ` (${JSON.stringify(entry.detail)})` : ''}`);
    }
    else if ((entry.res?.statusCode ?? 0) >= 400 && !refused.has(entry.reqId)) found.push(`answered ${call} with ${entry.res?.statusCode}`);
    else if ((entry.level ?? 0) >= 40) found.push(text);
  }
  return found;
}
