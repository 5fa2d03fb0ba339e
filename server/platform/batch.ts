/**
 * Asks made within one turn of the event loop, answered by one call of `load` with all of them in
 * order; each caller gets the answer at its ask's place. A load starts after each of its callers
 * asked, so it sees everything committed before then. Per process; a failed load fails the
 * callers of that turn only.
 */
export function inOneTurn<A, V>(load: (asks: A[]) => Promise<V[]>): (ask: A) => Promise<V> {
  let waiting: { ask: A; resolve: (value: V) => void; reject: (error: unknown) => void }[] | null = null;
  const flush = () => {
    const batch = waiting ?? [];
    waiting = null;
    load(batch.map((w) => w.ask)).then(
      (values) => {
        for (const [i, w] of batch.entries()) w.resolve(values[i] as V);
      },
      (error: unknown) => {
        for (const w of batch) w.reject(error);
      },
    );
  };
  return (ask) =>
    new Promise<V>((resolve, reject) => {
      if (!waiting) {
        waiting = [];
        setImmediate(flush);
      }
      waiting.push({ ask, resolve, reject });
    });
}

/**
 * Reads by key, gathered: the keys asked for within one turn of the event loop are loaded by one
 * call of `load` (one query instead of one each, each key once), and every caller gets its own
 * key's value (`missing()` for a key the load did not find).
 */
export function gathered<K, V>(load: (keys: K[]) => Promise<Map<K, V>>, missing: () => V): (key: K) => Promise<V> {
  return inOneTurn(async (keys: K[]) => {
    const values = await load([...new Set(keys)]);
    return keys.map((key) => values.get(key) ?? missing());
  });
}

/**
 * Reads of one holder each that also ask something (a day, a month and page), gathered as
 * `gathered` gathers keys: the holders asking the same thing (`keyOf` of the ask) in one turn are
 * one call of `load`, and each distinct ask its own call.
 */
export function gatheredByAsk<A, V>(
  load: (ids: bigint[], ask: A) => Promise<Map<bigint, V>>,
  keyOf: (ask: A) => string,
  missing: () => V,
): (id: bigint, ask: A) => Promise<V> {
  const asks = new Map<string, A>();
  const read = gathered(async (keys: string[]) => {
    const groups = new Map<string, bigint[]>();
    for (const key of keys) {
      const at = key.indexOf('|');
      const shared = key.slice(at + 1);
      groups.set(shared, [...(groups.get(shared) ?? []), BigInt(key.slice(0, at))]);
    }
    const found = new Map<string, V>();
    await Promise.all(
      [...groups].map(async ([shared, ids]) => {
        // Taken before any await: an ask of a later turn sets it again for its own load.
        const ask = asks.get(shared);
        asks.delete(shared);
        if (ask === undefined) return;
        for (const [id, value] of await load(ids, ask)) found.set(`${id}|${shared}`, value);
      }),
    );
    return found;
  }, missing);
  return (id, ask) => {
    const shared = keyOf(ask);
    asks.set(shared, ask);
    return read(`${id}|${shared}`);
  };
}
