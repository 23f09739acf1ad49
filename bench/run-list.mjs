// `statecraft run list` over a 10,000-attempt chain (issue 3: ≤ 1 s). The chain is built from one
// real attempt's intent and outcome, relinked 10,000 times, so every record is schema-valid and
// every link verifies exactly as a chain `run` wrote would.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { median } from './common.mjs';
import { STATECRAFT, productHome, sampleRepository, timed } from './run-statecraft-helpers.mjs';

const sha = (text) => createHash('sha256').update(text).digest('hex');

export async function measureRunList(attempts = 10_000, rounds = 5) {
  const repository = sampleRepository();
  const home = productHome();
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, STATECRAFT_HOME: home };
  const first = await timed(process.execPath, [STATECRAFT, 'run', repository, '--adapter', 'fixture', '--prompt', 'scenario: refuse', '--json'], { env });
  const chain = JSON.parse(first.stdout).records.chain;
  const [intentLine, outcomeLine] = readFileSync(chain, 'utf8').trim().split('\n');
  const intent = JSON.parse(intentLine);
  const outcome = JSON.parse(outcomeLine);
  const lines = [];
  let prev = 'genesis';
  for (let index = 0; index < attempts; index += 1) {
    const runId = `20261130T000000Z-${index.toString(16).padStart(6, '0')}`;
    const intentText = JSON.stringify({ ...intent, prev, seq: 2 * index, runId });
    const intentDigest = sha(intentText);
    const outcomeText = JSON.stringify({ ...outcome, prev: intentDigest, seq: 2 * index + 1, runId, intent: intentDigest });
    prev = sha(outcomeText);
    lines.push(intentText, outcomeText);
  }
  const text = `${lines.join('\n')}\n`;
  writeFileSync(chain, text);
  const samples = [];
  for (let round = 0; round < rounds; round += 1) {
    const answer = await timed(process.execPath, [STATECRAFT, 'run', 'list', repository, '--json'], { env });
    if (answer.code !== 0) throw new Error(`run list exited ${answer.code}`);
    if (JSON.parse(answer.stdout).attempts.length !== attempts) throw new Error('run list did not list every attempt');
    samples.push(answer.ms);
  }
  return { attempts, records: 2 * attempts, chainMB: Buffer.byteLength(text) / 1e6, rounds, medianMs: median(samples), maxMs: Math.max(...samples) };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await measureRunList()));
