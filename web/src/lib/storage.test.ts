import { afterEach, describe, expect, it, vi } from 'vitest';
import { COOKIE_DAYS, KEYS, SIGNED_IN_KEYS, STORAGE_PREFIX, storage } from './storage.ts';

/** A document whose cookie property behaves like a browser's: writes set or expire one cookie. */
function cookieJar() {
  const jar = new Map<string, string>();
  const written: string[] = [];
  const document = {
    get cookie() {
      return [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    },
    set cookie(line: string) {
      written.push(line);
      const [pair = ''] = line.split(';');
      const [name = '', value = ''] = pair.split('=');
      if (/Max-Age=0\b/.test(line)) jar.delete(name);
      else jar.set(name, value);
    },
  };
  return { document, written };
}

describe('the storage helper (spec section 3)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('has the nine keys of the spec, and clears five at logout (spec section 4)', () => {
    expect([...KEYS]).toEqual(['token', 'userId', 'code', 'state', 'userInfo', 'lang', 'redirectRefer', 'utm_source', 'urlParams']);
    expect([...SIGNED_IN_KEYS].sort()).toEqual(['code', 'state', 'token', 'userId', 'userInfo']);
  });

  it('writes under a fixed prefix, for 30 days, and reads and removes what it wrote', () => {
    const { document, written } = cookieJar();
    vi.stubGlobal('document', document);
    vi.stubGlobal('location', { protocol: 'http:' });
    storage.set('token', '7.a b');
    expect(written[0]).toBe(`${STORAGE_PREFIX}token=7.a%20b; Max-Age=${30 * 86_400}; Path=/; SameSite=Lax`);
    expect(COOKIE_DAYS).toBe(30);
    expect(storage.get('token')).toBe('7.a b');
    expect(storage.get('userId')).toBeNull();
    storage.remove('token');
    expect(storage.get('token')).toBeNull();
  });
});
