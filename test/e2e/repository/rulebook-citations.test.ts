import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { definedRules, findCitationProblems, projectFiles } from '../../fixtures/rulebook-citations.js';

// Every rule number and document the code cites resolves for anyone who clones the repository
// (docs/architecture.md, convention 12): the rules are in docs/requirements.md, the rest in docs/.

const repositoryRoot = fileURLToPath(new URL('../../..', import.meta.url));
const rulebook = readFileSync(join(repositoryRoot, 'docs/requirements.md'), 'utf8');
const existsInRepository = (path: string) => existsSync(join(repositoryRoot, path));

describe('the rulebook and the citations of it', () => {
  it('defines every rule from R1 to R14, the ones not yet built included', () => {
    const defined = definedRules(rulebook);
    for (let rule = 1; rule <= 14; rule += 1) expect(defined.has(`R${rule}`), `R${rule}`).toBe(true);
    expect(defined.has('R7.5')).toBe(true);
    expect(defined.has('R13.6')).toBe(true);
  });

  it('finds every rule number cited in sources, test titles and documents defined, and every cited document present', () => {
    const files = projectFiles(repositoryRoot);
    // The scan reaches the places that cite: sources, tests, the end-to-end tests, benchmarks, documents.
    for (const place of ['packages/adapter/src/', 'packages/run/test/', 'test/', 'bench/', 'docs/', 'qualification/']) {
      expect(
        files.some((file) => file.path.startsWith(place)),
        place,
      ).toBe(true);
    }
    expect(findCitationProblems(files, definedRules(rulebook), existsInRepository)).toEqual([]);
  });

  it('reports a bogus rule number, a document that is not in the repository, and a document named outside it', () => {
    // Assembled here so this file does not itself cite what it shows being caught.
    const bogusRule = ['R', '99.9'].join('');
    const missingDocument = ['..', 'shared', 'notes.md'].join('/');
    const outsideName = 'facts'.toUpperCase();
    const sample = [
      `// The deadline fires here (R7.2, ${bogusRule}).`,
      `it('keeps the refusal (R4 row 1, see ${missingDocument})', () => {});`,
      `// As ${outsideName} item 8 measured; docs/facts.md item 8 now.`,
    ].join('\n');
    const problems = findCitationProblems([{ path: 'packages/run/src/sample.ts', text: sample }], definedRules(rulebook), existsInRepository);
    expect(problems).toEqual([
      { path: 'packages/run/src/sample.ts', line: 1, citation: bogusRule, problem: 'docs/requirements.md defines no such rule' },
      { path: 'packages/run/src/sample.ts', line: 2, citation: missingDocument, problem: 'no such document in the repository' },
      { path: 'packages/run/src/sample.ts', line: 3, citation: outsideName, problem: expect.stringContaining('outside the repository') as unknown },
    ]);
  });

  it('counts a rule as defined only where a heading or list item of the rulebook starts with its number', () => {
    const defined = definedRules(['## R1 The seam', '- **R1.1** One seam.', '1. R1.2 in a numbered item.', 'Prose naming R1.3 defines nothing.'].join('\n'));
    expect([...defined].sort()).toEqual(['R1', 'R1.1', 'R1.2']);
  });
});
