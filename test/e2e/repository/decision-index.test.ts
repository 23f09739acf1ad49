import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// docs/decision-index.md is how a newcomer finds a decision: a record it does not list is one
// nobody reads, and a link to a record that was renamed leads nowhere.

const docs = fileURLToPath(new URL('../../../docs', import.meta.url));

describe('the decision index', () => {
  const index = readFileSync(join(docs, 'decision-index.md'), 'utf8');
  const linked = [...index.matchAll(/\]\(decisions\/([^)]+)\)/g)].map((match) => match[1]!);

  it('lists every record in docs/decisions/, once, in order of number', () => {
    const records = readdirSync(join(docs, 'decisions')).filter((name) => name.endsWith('.md'));
    expect(linked).toEqual([...records].sort());
  });

  it('links only records that exist, each under its own number', () => {
    expect(linked.filter((name) => !existsSync(join(docs, 'decisions', name)))).toEqual([]);
    const mislabelled = [...index.matchAll(/^- \[(\d{4})\]\(decisions\/(\d{4})-/gm)].filter((match) => match[1] !== match[2]);
    expect(mislabelled.map((match) => match[0])).toEqual([]);
  });
});
