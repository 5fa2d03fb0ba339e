import { describe, expect, it } from 'vitest';
import { LANGUAGE_COOKIE } from '../../../contract/languages.ts';
import { STORAGE_PREFIX } from './storage.ts';

describe('storage', () => {
  it('keeps the language in the cookie the server reads to name the page language', () => {
    expect(`${STORAGE_PREFIX}lang`).toBe(LANGUAGE_COOKIE);
  });
});
