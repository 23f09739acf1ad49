// The figures of issue 3 (`statecraft run`), measured in one run on this machine against their
// targets. Runnable alone (`node bench/run-statecraft.mjs`) or from bench/run.mjs.
import { loadavg } from 'node:os';
import { measureRunEndToEnd } from './run-end-to-end.mjs';
import { measureRunList } from './run-list.mjs';
import { measureRealProvider } from './real-provider.mjs';
import { measureBoundaryCost } from './boundary-cost.mjs';

const fixed = (value, digits = 1) => value.toFixed(digits);
const verdict = (ok) => (ok ? 'meets target' : 'MISSES target');

const endToEnd = await measureRunEndToEnd();
console.log(`\n(d) statecraft run, fixture "complete", end to end (${endToEnd.rounds} rounds interleaved; load average ${loadavg().map((n) => fixed(n, 2)).join(' ')})`);
console.log(`    bare fixture spawn     median ${fixed(endToEnd.bareMedianMs)} ms`);
console.log(`    statecraft run (CLI)   median ${fixed(endToEnd.runMedianMs)} ms  added ${fixed(endToEnd.addedMs)} ms (≤ 150)  ${verdict(endToEnd.addedMs <= 150)}`);
console.log(`    of which CLI start-up  median ${fixed(endToEnd.startupMedianMs)} ms (statecraft --help: node and module loading)`);
console.log(`    run path in-process    median ${fixed(endToEnd.inProcessMedianMs)} ms  added ${fixed(endToEnd.addedInProcessMs)} ms (plan + launch, no start-up)  ${verdict(endToEnd.addedInProcessMs <= 150)}`);

const list = await measureRunList();
console.log(`\n(e) statecraft run list over ${list.attempts} attempts (${list.records} records, ${fixed(list.chainMB)} MB chain)`);
console.log(`    median ${fixed(list.medianMs)} ms, max ${fixed(list.maxMs)} ms over ${list.rounds} rounds (≤ 1000)  ${verdict(list.medianMs <= 1000)}`);

const real = await measureRealProvider();
console.log(`\n(f) statecraft run of the real pinned claude against the model double (${real.rounds} rounds interleaved; load average ${loadavg().map((n) => fixed(n, 2)).join(' ')})`);
console.log(`    bare claude            median ${fixed(real.bareMedianMs)} ms (the adapter's own flags, same double)`);
console.log(`    statecraft run (CLI)   median ${fixed(real.runMedianMs)} ms  added ${fixed(real.addedMs)} ms (≤ 300)  ${verdict(real.addedMs <= 300)}`);

const boundary = await measureBoundaryCost();
console.log(`\n(g) the evidence boundary (bwrap, probe included) against --boundary none (unshare), ${boundary.rounds} rounds interleaved`);
for (const [label, figure] of [['run path in-process', boundary.inProcess], ['statecraft run (CLI)', boundary.cli]]) {
  console.log(`    ${label.padEnd(22)} with ${fixed(figure.withMedianMs)} ms, without ${fixed(figure.withoutMedianMs)} ms  added ${fixed(figure.addedMs)} ms (≤ 60)  ${verdict(figure.addedMs <= 60)}`);
}

console.log(`\n${JSON.stringify({ runEndToEnd: endToEnd, runList: list, realProvider: real, boundary })}`);
