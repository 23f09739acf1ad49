import { describe, expect, it } from 'vitest';
import { inWorktreeTurn } from '../src/git/in-worktree-turn.js';

describe('inWorktreeTurn', () => {
  it('starts a change at once when none is under way, and the next only once the one before has ended, even when it failed', async () => {
    const seen: string[] = [];
    let endFirst: () => void = () => undefined;
    const first = inWorktreeTurn(async () => {
      seen.push('first begins');
      await new Promise<void>((resolve) => {
        endFirst = resolve;
      });
      seen.push('first ends');
      throw new Error('git failed');
    });
    expect(seen).toEqual(['first begins']);
    const second = inWorktreeTurn(() => {
      seen.push('second begins');
      return Promise.resolve(2);
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(seen).toEqual(['first begins']);
    endFirst();
    await expect(first).rejects.toThrow('git failed');
    await expect(second).resolves.toBe(2);
    expect(seen).toEqual(['first begins', 'first ends', 'second begins']);
    const third = inWorktreeTurn(() => {
      seen.push('third begins');
      return Promise.resolve(3);
    });
    expect(seen.at(-1)).toBe('third begins');
    await expect(third).resolves.toBe(3);
  });
});
