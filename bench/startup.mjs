// CLI start-up (`statecraft --version` ≤ 2 × `node -e 0`), measured side by
// side: each round runs both, in alternating order, so load that comes and goes falls on both.
import { loadavg } from 'node:os';
import { median } from './common.mjs';
import { STATECRAFT, timed } from './run-statecraft-helpers.mjs';

export async function measureStartup(rounds = 30) {
  const env = { PATH: process.env.PATH, HOME: process.env.HOME };
  const node = () => timed(process.execPath, ['-e', '0'], { env });
  const version = () => timed(STATECRAFT, ['--version'], { env });
  const help = () => timed(STATECRAFT, ['--help'], { env });
  for (const warm of [node, version, help]) await warm();
  const samples = { node: [], version: [], help: [] };
  const loadBefore = loadavg()[0];
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? ['node', 'version', 'help'] : ['help', 'version', 'node'];
    for (const name of order) {
      const answer = await { node, version, help }[name]();
      if (answer.code !== 0) throw new Error(`${name} exited ${answer.code}`);
      samples[name].push(answer.ms);
    }
  }
  const nodeMs = median(samples.node);
  const versionMs = median(samples.version);
  return {
    rounds,
    nodeMedianMs: nodeMs,
    versionMedianMs: versionMs,
    ratio: versionMs / nodeMs,
    helpMedianMs: median(samples.help),
    loadAverage: [loadBefore, loadavg()[0]],
  };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await measureStartup()));
