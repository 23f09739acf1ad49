import { readFile } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { readKeptEvents } from '../../fixtures/attempt-stream.js';
import { doctorOf, findingsAbout } from '../../fixtures/doctor-findings.js';
import { readChainRecords } from '../../fixtures/relink-chain.js';
import { createScriptedAdapter } from '../../fixtures/scripted-adapter.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

const targets = useTestTargets();
const removals: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const remove of removals) await remove();
});

interface Account {
  runId: string;
  outcome: string;
  providerClaim: unknown;
  refusals: { verbatim?: unknown }[];
  records: { chain: string };
  artifacts: { stream: { path: string }; result: { path: string } };
}

/** The claim the finding's adapter wrote (records F9), byte for byte: `__proto__` is an ordinary key of JSON. */
const CLAIM = '{"status":"success","isError":false,"reason":"completed","detail":{"__proto__":{"isError":true,"note":"the provider said this"},"a":1}}';

/** What the kept stream's result event claims, as JSON text: what every copy of the claim must read. */
async function keptClaim(account: Account): Promise<string> {
  const result = (await readKeptEvents(account)).find((event) => event['type'] === 'result');
  return JSON.stringify(result?.['claim']);
}

/**
 * A provider's own words are kept as it said them (R8.2). A claim's detail with a `__proto__` key is
 * kept whole in the stream, but zod's record schema copies an object key by key and leaves that key
 * out, so the outcome record, result.json, `run --json` and `run show` would hold `{"a":1}`, and
 * doctor, reading the stream through the same schema, would agree with them (decision 0068).
 */
describe("a provider's objects keep every key, __proto__ too, from the stream to every record (R8.2)", () => {
  it('a claim whose detail has a __proto__ key reads the same in the stream, run --json, the outcome record, result.json and run show; doctor finds nothing', async () => {
    const adapter = await createScriptedAdapter(
      'proto-claim',
      `init();
process.stdout.write(line({ type: 'result', terminal: 'completed', claim: 'CLAIM', turns: 1 }).replace('"CLAIM"', ${JSON.stringify(CLAIM)}));`,
    );
    removals.push(adapter.remove);
    const repository = await targets.fresh();
    const ran = await runStatecraft(['run', repository.path, '--adapter', adapter.executable, '--prompt', 'go', '--json'], { home: targets.home.path });
    expect(ran.exitCode, ran.stderr).toBe(0);
    const account = parseJson<Account>(ran);
    expect(account.outcome).toBe('completed');
    expect(await keptClaim(account)).toBe(CLAIM);

    expect(JSON.stringify(account.providerClaim)).toBe(CLAIM);
    const outcome = (await readChainRecords(account.records.chain)).map(({ record }) => record).find((record) => record['kind'] === 'outcome');
    expect(JSON.stringify((outcome?.['result'] as Record<string, unknown> | undefined)?.['providerClaim'])).toBe(CLAIM);
    const result = JSON.parse(await readFile(account.artifacts.result.path, 'utf8')) as Record<string, unknown>;
    expect(JSON.stringify(result['providerClaim'])).toBe(CLAIM);
    const shown = parseJson<Account>(await runStatecraft(['run', 'show', repository.path, account.runId, '--json'], { home: targets.home.path }));
    expect(JSON.stringify(shown.providerClaim)).toBe(CLAIM);

    const doctor = await doctorOf(targets.home.path);
    expect(findingsAbout(doctor.value, account.records.chain)).toEqual([]);
  });

  it('a refusal whose verbatim record, and a claim whose nested detail, hold __proto__ keys keep them in the record', async () => {
    const verbatim = '{"__proto__":{"tool_name":"Read"},"tool_name":"Bash","tool_input":{"__proto__":{"command":"ls"},"command":"git push"}}';
    const claim = '{"status":"success","isError":false,"reason":"completed","detail":{"usage":{"__proto__":{"input_tokens":0},"input_tokens":7}}}';
    const adapter = await createScriptedAdapter(
      'proto-refusal',
      `init();
process.stdout.write(line({ type: 'refusal', tool: 'Bash', verbatim: 'VERBATIM' }).replace('"VERBATIM"', ${JSON.stringify(verbatim)}));
process.stdout.write(line({ type: 'result', terminal: 'completed', claim: 'CLAIM', turns: 1 }).replace('"CLAIM"', ${JSON.stringify(claim)}));`,
    );
    removals.push(adapter.remove);
    const repository = await targets.fresh();
    const ran = await runStatecraft(['run', repository.path, '--adapter', adapter.executable, '--prompt', 'go', '--json'], { home: targets.home.path });
    expect(ran.exitCode, ran.stderr).toBe(1);
    const account = parseJson<Account>(ran);
    expect(account.outcome).toBe('refused');
    expect(JSON.stringify(account.refusals[0]?.verbatim)).toBe(verbatim);
    expect(JSON.stringify(account.providerClaim)).toBe(claim);
    expect(await keptClaim(account)).toBe(claim);
    const shown = parseJson<Account>(await runStatecraft(['run', 'show', repository.path, account.runId, '--json'], { home: targets.home.path }));
    expect(JSON.stringify(shown.refusals[0]?.verbatim)).toBe(verbatim);
    expect(findingsAbout((await doctorOf(targets.home.path)).value, account.records.chain)).toEqual([]);
  });
});
