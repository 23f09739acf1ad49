// The figures of issue 3 (`statecraft run`), measured in one run on this machine against their
// targets. Runnable alone (`node bench/run-statecraft.mjs`) or from bench/run.mjs.
import { loadavg } from 'node:os';
import { measureRunEndToEnd } from './run-end-to-end.mjs';
import { measureRunList } from './run-list.mjs';
import { measureRealProvider } from './real-provider.mjs';
import { measureDoctorOverAttempts, measureDoctorOverLargeStream } from './doctor.mjs';
import { measureScale } from './run-scale.mjs';
import { measureStartup } from './startup.mjs';
import { measureBoundaryCost } from './boundary-cost.mjs';

const fixed = (value, digits = 1) => value.toFixed(digits);
const verdict = (ok) => (ok ? 'meets target' : 'MISSES target');

const endToEnd = await measureRunEndToEnd();
console.log(
  `\n(d) statecraft run, fixture "complete", end to end (${endToEnd.rounds} rounds interleaved; load average ${loadavg()
    .map((n) => fixed(n, 2))
    .join(' ')})`,
);
console.log(`    bare fixture spawn     median ${fixed(endToEnd.bareMedianMs)} ms`);
console.log(
  `    statecraft run (CLI)   median ${fixed(endToEnd.runMedianMs)} ms  added ${fixed(endToEnd.addedMs)} ms (≤ 250)  ${verdict(endToEnd.addedMs <= 250)}`,
);
console.log(`    of which CLI start-up  median ${fixed(endToEnd.startupMedianMs)} ms (statecraft --help: node and module loading)`);
console.log(
  `    run path in-process    median ${fixed(endToEnd.inProcessMedianMs)} ms  added ${fixed(endToEnd.addedInProcessMs)} ms (plan + launch, no start-up)  ${verdict(endToEnd.addedInProcessMs <= 250)}`,
);

const list = await measureRunList();
console.log(`\n(e) statecraft run list over ${list.attempts} attempts (${list.records} records, ${fixed(list.chainMB)} MB chain)`);
console.log(`    median ${fixed(list.medianMs)} ms, max ${fixed(list.maxMs)} ms over ${list.rounds} rounds (≤ 1000)  ${verdict(list.medianMs <= 1000)}`);

const real = await measureRealProvider();
console.log(
  `\n(f) statecraft run of the real pinned claude against the model double (${real.rounds} rounds interleaved; load average ${loadavg()
    .map((n) => fixed(n, 2))
    .join(' ')})`,
);
console.log(`    bare claude            median ${fixed(real.bareMedianMs)} ms (the adapter's own flags, same double)`);
console.log(`    statecraft run (CLI)   median ${fixed(real.runMedianMs)} ms  added ${fixed(real.addedMs)} ms (≤ 300)  ${verdict(real.addedMs <= 300)}`);

// Issue 9: doctor re-digests every kept file and re-classifies every attempt from its kept stream.
// No target was set; the figures are recorded so a regression shows.
const doctorOverAttempts = await measureDoctorOverAttempts();
const doctorOverStream = await measureDoctorOverLargeStream();
console.log(`\n(g) statecraft doctor, every kept file re-digested and every outcome re-classified from its stream`);
console.log(
  `    over ${doctorOverAttempts.attempts} attempts     median ${fixed(doctorOverAttempts.medianMs)} ms wall, ${fixed(doctorOverAttempts.medianCpuMs)} ms CPU over ${doctorOverAttempts.rounds} rounds; peak RSS ${fixed(doctorOverAttempts.peakRssMB)} MB`,
);
console.log(
  `    one ${fixed(doctorOverStream.streamMB)} MB stream  ${fixed(doctorOverStream.ms)} ms wall, ${fixed(doctorOverStream.cpuMs)} ms CPU; peak RSS ${fixed(doctorOverStream.peakRssMB)} MB (read as a stream)`,
);

const scale = await measureScale(100_000, { listRounds: 5, runRounds: 15 });
console.log(`\n(h) records that scale: a target with ${scale.attempts} prior attempts (${fixed(scale.chainMB)} MB chain)`);
console.log(
  `    run list               median ${fixed(scale.list.medianMs)} ms, max ${fixed(scale.list.maxMs)} ms over ${scale.list.rounds} rounds, peak RSS ${fixed(scale.list.peakRssMB)} MB (≤ 2000 ms)  ${verdict(scale.list.medianMs <= 2000)}  load average ${fixed(scale.list.loadAverage, 2)}`,
);
console.log(
  `    statecraft run         median ${fixed(scale.run.largeMedianMs)} ms vs ${fixed(scale.run.emptyMedianMs)} ms on an empty target: added ${fixed(scale.run.addedMs)} ms (≤ 20)  ${verdict(scale.run.addedMs <= 20)}  (${scale.run.rounds} rounds interleaved; load average ${scale.run.loadAverage.map((n) => fixed(n, 2)).join(' → ')})`,
);
console.log(
  `    the launch's chain reading, in process  median ${fixed(scale.run.launchReadingMedianMs.large, 2)} ms vs ${fixed(scale.run.launchReadingMedianMs.empty, 2)} ms on an empty target (checkpoint → the bytes after it → position)`,
);
console.log(
  `    first run, no checkpoint yet  ${fixed(scale.run.firstRunWithoutCheckpointMs)} ms (every link verified once; later runs start at the checkpoint)`,
);

const startup = await measureStartup();
console.log(`\n(i) CLI start-up, ${startup.rounds} rounds side by side (load average ${startup.loadAverage.map((n) => fixed(n, 2)).join(' → ')})`);
console.log(`    node -e 0              median ${fixed(startup.nodeMedianMs)} ms`);
console.log(`    statecraft --version   median ${fixed(startup.versionMedianMs)} ms  ratio ${fixed(startup.ratio, 2)} (≤ 2)  ${verdict(startup.ratio <= 2)}`);
console.log(`    statecraft --help      median ${fixed(startup.helpMedianMs)} ms (the whole CLI loaded, for comparison)`);

const boundary = await measureBoundaryCost();
console.log(`\n(j) the evidence boundary (bwrap, probe included) against --boundary none (unshare), ${boundary.rounds} rounds interleaved`);
for (const [label, figure] of [
  ['run path in-process', boundary.inProcess],
  ['statecraft run (CLI)', boundary.cli],
]) {
  console.log(
    `    ${label.padEnd(22)} with ${fixed(figure.withMedianMs)} ms, without ${fixed(figure.withoutMedianMs)} ms  added ${fixed(figure.addedMs)} ms (≤ 60)  ${verdict(figure.addedMs <= 60)}`,
  );
}

console.log(
  `\n${JSON.stringify({ runEndToEnd: endToEnd, runList: list, realProvider: real, doctorOverAttempts, doctorOverStream, scale, startup, boundary })}`,
);
