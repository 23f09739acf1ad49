import { describe, expect, it } from 'vitest';
import { leavesTree } from '../src/judge/links-outside-candidate.js';

// R13.3: which of a candidate's links reach outside its tree, resolved as the kernel would in the
// checked-out worktree but from the links git holds, never from the file system.

const leaves = (path: string, links: Record<string, string>): boolean => leavesTree(path, new Map(Object.entries(links)));

describe('leavesTree', () => {
  it.each([
    ['an absolute target', 'answer.txt', { 'answer.txt': '/tmp/hidden.txt' }],
    ['a relative target climbing above the root', 'answer.txt', { 'answer.txt': '../../workspaces/run/hidden.txt' }],
    ['a climb from a subdirectory', 'a/b/answer.txt', { 'a/b/answer.txt': '../../../x' }],
    ['a target through another link that leaves', 'answer.txt', { 'answer.txt': 'up/hidden.txt', up: '..' }],
    ['a target through another link that is absolute', 'answer.txt', { 'answer.txt': 'out/hidden.txt', out: '/srv' }],
    ['a target into the worktree .git', 'answer.txt', { 'answer.txt': '.git' }],
    ['a target into .git through a parent climb', 'a/answer.txt', { 'a/answer.txt': '../.git/config' }],
  ])('leaves for %s', (_, path, links) => {
    expect(leaves(path, links)).toBe(true);
  });

  it.each([
    ['a sibling file', 'answer.txt', { 'answer.txt': 'data/answer.txt' }],
    ['a climb that stays under the root', 'a/b/answer.txt', { 'a/b/answer.txt': '../../data/answer.txt' }],
    ['a chain of links inside the tree', 'answer.txt', { 'answer.txt': 'first', first: 'data/second', 'data/second': '../data/answer.txt' }],
    ['a dangling target inside the tree', 'answer.txt', { 'answer.txt': 'missing/file' }],
    ['a loop (reading it fails, reaching nothing)', 'a', { a: 'b', b: 'a' }],
    ['a directory named like .git below the root', 'answer.txt', { 'answer.txt': 'vendor/.git/HEAD' }],
  ])('stays for %s', (_, path, links) => {
    expect(leaves(path, links)).toBe(false);
  });
});
