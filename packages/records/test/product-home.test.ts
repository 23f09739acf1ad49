import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { productHomeLayout, resolveProductHome, targetKey } from '@statecraft/records';

describe('the product home (R8.4)', () => {
  it('is $STATECRAFT_HOME when set', () => {
    expect(resolveProductHome({ STATECRAFT_HOME: '/var/statecraft' })).toEqual({ path: '/var/statecraft', source: 'STATECRAFT_HOME' });
  });

  it('is ~/.statecraft by default, and an empty STATECRAFT_HOME counts as unset', () => {
    expect(resolveProductHome({})).toEqual({ path: join(homedir(), '.statecraft'), source: 'default' });
    expect(resolveProductHome({ STATECRAFT_HOME: '' }).source).toBe('default');
  });

  it('a relative STATECRAFT_HOME is made absolute, so every record names an absolute place', () => {
    expect(resolveProductHome({ STATECRAFT_HOME: 'relative/home' }).path).toBe(resolve('relative/home'));
  });

  it("files each target under a key derived from its real path, inside the home's targets directory", () => {
    const key = targetKey('/work/repository');
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(targetKey('/work/repository')).toBe(key);
    expect(targetKey('/work/other')).not.toBe(key);
    expect(productHomeLayout('/h').target(key)).toBe(`/h/targets/${key}`);
  });
});
